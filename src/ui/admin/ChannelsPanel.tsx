import { channelLabel } from "../../shared/channels.ts";
import type { ChannelRow } from "../../shared/admin_schemas.ts";
import { Card, LoadError, Loading } from "./Card.tsx";
import { panelCsvHref } from "./panels.ts";
import { ComparedCells } from "./Delta.tsx";
import { formatComparison, formatInt } from "./format.ts";
import { ConversionRows } from "./ConversionTable.tsx";
import { type Period, useChannels, useWhatsapp } from "./queries.ts";
import { Term } from "./Term.tsx";
import { FilterButton } from "./filter_context.tsx";

const NONE: ChannelRow = {
  channel: "",
  visits: 0,
  clicks: 0,
  conversions: 0,
  leads: 0,
  leadRate: 0,
  conversionRate: 0,
};

function previousOf(rows: ChannelRow[]) {
  const map = new Map(rows.map((r) => [r.channel, r]));
  return (channel: string) => map.get(channel) ?? NONE;
}

/**
 * An added panel (docs/PRODUCT.md, _Dashboard_): visits, plan clicks, leads (by last touch) and their rate
 * per channel (GA4's grouping).
 */
/** WhatsApp clicks per channel of the period (0 for a channel without any). */
function useWhatsappByChannel(period: Period): (channel: string) => number {
  const q = useWhatsapp(period);
  const map = new Map(q.data?.byChannel.map((r) => [r.channel, r.whatsappClicks]));
  return (channel) => map.get(channel) ?? 0;
}

export function ChannelsPanel({ period }: { period: Period }) {
  const q = useChannels(period);
  const whatsappOf = useWhatsappByChannel(period);
  return (
    <Card
      id="channels"
      csv={panelCsvHref("channels", period)}
      title="Canais"
      subtitle="De onde vêm as visitas (UTM, site de origem e identificador de clique); cliques e leads pela sessão em que aconteceram"
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.current.length === 0
        ? <p className="card-empty">Nenhuma visita com canal registrada no período</p>
        : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Tabela de canais">
            <table className="conversion-table channel-table">
              <thead>
                <tr>
                  <th scope="col">Canal</th>
                  <th scope="col" className="num">
                    <Term id="visits">Visualizações</Term>
                  </th>
                  <th scope="col" className="num">
                    <Term id="planClicks">Cliques</Term>
                  </th>
                  <th scope="col" className="num">
                    <Term id="leads" />
                  </th>
                  <th scope="col" className="num">
                    <Term id="conversionRate">Taxa</Term>
                  </th>
                  <th scope="col" className="num">
                    <Term id="whatsappClicks">WhatsApp</Term>
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.data.current.map((row) => {
                  const before = previousOf(q.data.previous)(row.channel);
                  return (
                    <tr key={row.channel} data-channel={row.channel}>
                      <th scope="row">
                        <FilterButton filterKey="channel" value={row.channel}>
                          {channelLabel(row.channel)}
                        </FilterButton>
                      </th>
                      <ComparedCells now={row} before={before} />
                      <td className="num" data-testid="channel-whatsapp">
                        {formatInt(whatsappOf(row.channel))}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      <p className="admin-muted card-note">
        Taxa = leads ÷ cliques nos planos (a taxa de conversão). Setas: comparação com o período anterior
        {q.data ? ` (${formatComparison(q.data.comparison)})` : ""}.
      </p>
    </Card>
  );
}

/** Beside conversion by UTM source: clicks, conversions (labelled as leads) and rate per channel. */
export function ChannelConversionTable({ period }: { period: Period }) {
  const q = useChannels(period);
  const whatsappOf = useWhatsappByChannel(period);
  const rows = q.data?.current.filter((r) => r.clicks > 0 || r.conversions > 0 || whatsappOf(r.channel) > 0)
    .sort((a, b) => b.clicks - a.clicks || b.conversions - a.conversions) ?? [];
  return (
    <Card
      id="conversion-by-channel"
      csv={panelCsvHref("channels", period)}
      title="Conversão por canal"
      subtitle="Cliques nos planos, leads e cliques no WhatsApp por canal da sessão"
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : rows.length === 0
        ? <p className="card-empty">Nenhum clique ou conversão com canal registrado no período</p>
        : (
          <ConversionRows
            head="Canal"
            label="Tabela de conversão por canal"
            whatsapp
            rows={rows.map((row) => ({
              key: row.channel,
              label: (
                <FilterButton filterKey="channel" value={row.channel}>
                  {channelLabel(row.channel)}
                </FilterButton>
              ),
              clicks: row.clicks,
              conversions: row.conversions,
              rate: row.conversionRate,
              previousRate: previousOf(q.data.previous)(row.channel).conversionRate,
              previousClicks: previousOf(q.data.previous)(row.channel).clicks,
              whatsappClicks: whatsappOf(row.channel),
            }))}
          />
        )}
    </Card>
  );
}
