import type { ReactNode } from "react";
import { performanceOf } from "../../shared/dashboard_math.ts";
import { Delta } from "./Delta.tsx";
import { Card, LoadError, Loading } from "./Card.tsx";
import { panelCsvHref } from "./panels.ts";
import { formatInt, formatPercent, visibleText } from "./format.ts";
import { type Period, useConversionBySource, useWhatsapp } from "./queries.ts";
import { Term } from "./Term.tsx";
import { FilterButton } from "./filter_context.tsx";
import { WORDS } from "../../shared/metrics.ts";

const LEVEL_TEXT = { excellent: "Excelente", good: "Bom", poor: "Precisa melhorar" } as const;

export interface ConversionRow {
  key: string;
  label: ReactNode;
  clicks: number;
  conversions: number;
  rate: number;
  /** The rate in the previous period, when the table compares with it. */
  previousRate?: number;
  /** Clicks in the previous period: none means no rate to compare with. */
  previousClicks?: number;
  /** WhatsApp clicks of the origin (a column of their own, apart from the plan clicks and the rate). */
  whatsappClicks?: number;
}

/**
 * Clicks, conversions (labelled as leads) and a rate coloured by performance level, one row per origin; with
 * `whatsapp`, a last column of WhatsApp clicks.
 */
export function ConversionRows(
  { rows, head, label, whatsapp }: { rows: ConversionRow[]; head: string; label: string; whatsapp?: boolean },
) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className={whatsapp ? "conversion-table with-whatsapp" : "conversion-table"}>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" className="num">
              <Term id="planClicks">Cliques</Term>
            </th>
            <th scope="col" className="num">
              <Term id="leads" />
            </th>
            <th scope="col" className="num">
              <Term id="conversionRate">Taxa</Term>
            </th>
            {whatsapp && (
              <th scope="col" className="num">
                <Term id="whatsappClicks">WhatsApp</Term>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const level = performanceOf(row.rate);
            return (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td className="num">{formatInt(row.clicks)}</td>
                <td className="num">{formatInt(row.conversions)}</td>
                <td className="num">
                  <span className={`rate rate-${level}`} title={LEVEL_TEXT[level]}>
                    {formatPercent(row.rate)}
                    <span className="visually-hidden">({LEVEL_TEXT[level]})</span>
                  </span>
                  {row.previousRate !== undefined && (
                    <Delta
                      current={row.rate}
                      previous={row.previousRate}
                      points
                      noBase={row.previousClicks === 0}
                    />
                  )}
                </td>
                {whatsapp && <td className="num">{formatInt(row.whatsappClicks ?? 0)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Section 8: clicks, conversions (labelled as leads) and rate per UTM source, with the performance legend. */
export function ConversionTable({ period }: { period: Period }) {
  const q = useConversionBySource(period);
  const whatsapp = useWhatsapp(period);
  const waBySource = new Map(whatsapp.data?.bySource.map((r) => [r.utmSource ?? "(none)", r.whatsappClicks]));
  // A source with WhatsApp clicks only still gets its row (after those with plan clicks or leads).
  const rows = q.data
    ? [
      ...q.data,
      ...(whatsapp.data?.bySource ?? [])
        .filter((w) => !q.data.some((r) => r.utmSource === w.utmSource))
        .map((w) => ({ utmSource: w.utmSource, clicks: 0, conversions: 0, rate: 0 })),
    ]
    : [];
  return (
    <Card
      id="conversion-by-source"
      csv={panelCsvHref("conversion-by-utm-source", period)}
      title="Conversão por origem"
      subtitle="Cliques nos planos, leads e cliques no WhatsApp por origem UTM (utm_source) da sessão"
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : rows.length === 0
        ? <p className="card-empty">Nenhum clique ou conversão registrado no período</p>
        : (
          <ConversionRows
            head="Origem"
            label="Tabela de conversão por origem"
            whatsapp
            rows={rows.map((row) => ({
              key: row.utmSource ?? "(none)",
              label: row.utmSource
                ? (
                  <FilterButton filterKey="utm_source" value={row.utmSource}>
                    {visibleText(row.utmSource)}
                  </FilterButton>
                )
                : <span className="admin-muted">{WORDS.noUtmSource}</span>,
              clicks: row.clicks,
              conversions: row.conversions,
              rate: row.rate,
              whatsappClicks: waBySource.get(row.utmSource ?? "(none)") ?? 0,
            }))}
          />
        )}
      <ul className="legend" aria-label="Legenda de desempenho">
        <li>
          <span className="dot rate-excellent" aria-hidden="true" />Excelente: 10% ou mais
        </li>
        <li>
          <span className="dot rate-good" aria-hidden="true" />Bom: de 5% a menos de 10%
        </li>
        <li>
          <span className="dot rate-poor" aria-hidden="true" />Precisa melhorar: abaixo de 5%
        </li>
      </ul>
    </Card>
  );
}
