import { useRef } from "react";
import { performanceOf } from "../../shared/dashboard_math.ts";
import type { FilterKey } from "../../shared/filters.ts";
import { Card, LoadError, Loading } from "./Card.tsx";
import { FilterButton } from "./filter_context.tsx";
import { formatInt, formatPercent, visibleText } from "./format.ts";
import { type Period, useRanking } from "./queries.ts";
import { panelCsvHref } from "./panels.ts";
import { Term } from "./Term.tsx";
import { useNearScreen } from "./near_screen.ts";

interface Props {
  id: string;
  title: string;
  subtitle: string;
  kind: "utm-content" | "utm-term";
  filterKey: FilterKey;
  head: string;
  empty: string;
  period: Period;
  near: boolean;
}

/** Visits, plan clicks, leads and rate per utm_content or utm_term value; a row's name filters by it. */
function UtmDetailPanel(props: Props) {
  const q = useRanking(props.kind, props.period, "", props.near);
  return (
    <Card
      id={props.id}
      title={props.title}
      subtitle={props.subtitle}
      className="utm-detail-card"
      csv={panelCsvHref(props.kind, props.period)}
    >
      {!props.near
        ? <p className="admin-muted card-waiting">Carregado ao rolar até aqui.</p>
        : q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.length === 0
        ? <p className="card-empty">{props.empty}</p>
        : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label={`Tabela: ${props.title}`}>
            <table className="conversion-table">
              <thead>
                <tr>
                  <th scope="col">{props.head}</th>
                  <th scope="col" className="num">
                    <Term id="visits" />
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
                </tr>
              </thead>
              <tbody>
                {q.data.map((row) => (
                  <tr key={row.value}>
                    <th scope="row">
                      <FilterButton filterKey={props.filterKey} value={row.value}>
                        {visibleText(row.value)}
                      </FilterButton>
                    </th>
                    <td className="num">{formatInt(row.visits)}</td>
                    <td className="num">{formatInt(row.clicks)}</td>
                    <td className="num">{formatInt(row.leads)}</td>
                    <td className="num">
                      <span className={`rate rate-${performanceOf(row.rate)}`}>
                        {formatPercent(row.rate)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </Card>
  );
}

/** Creatives (utm_content, the ad's name on Meta) and keywords (utm_term), side by side. */
export function UtmDetailPanels({ period }: { period: Period }) {
  // Read from the raw rows (docs/ANALYTICS.md): asked only when the cards come near the screen, so they are
  // not part of the dashboard's first load.
  const box = useRef<HTMLDivElement>(null);
  const near = useNearScreen(box);
  return (
    <div className="conversion-pair" id="utm-details" ref={box}>
      <UtmDetailPanel
        id="rank-utm-content"
        title="Criativos (utm_content)"
        subtitle="O parâmetro utm_content do endereço de chegada: nos anúncios da Meta, o criativo; cliques e leads pela sessão"
        kind="utm-content"
        filterKey="utm_content"
        head="Criativo"
        empty="Nenhum criativo (utm_content) registrado no período"
        period={period}
        near={near}
      />
      <UtmDetailPanel
        id="rank-utm-term"
        title="Palavras-chave (utm_term)"
        subtitle="O parâmetro utm_term do endereço de chegada; cliques e leads pela sessão"
        kind="utm-term"
        filterKey="utm_term"
        head="Palavra-chave"
        empty="Nenhuma palavra-chave (utm_term) registrada no período"
        period={period}
        near={near}
      />
    </div>
  );
}
