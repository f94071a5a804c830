// Who the visitors are (docs/AUDIENCE.md): "Dispositivos", "Navegadores", "Sistemas", "Países" and "Estados"
// (page views, plan clicks, leads and leads ÷ clicks, with the previous period; a row's name filters the
// dashboard by it) and "Leads por estado" (the state of each lead's WhatsApp number). They sit below the
// rankings and ask for their data only when they come near the screen, so the first load is unchanged.
import { useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  AUDIENCE_DIMENSIONS,
  AUDIENCE_KEY_LABELS,
  AUDIENCE_TITLES,
  type AudienceDimension,
} from "../../shared/audience.ts";
import { audienceReport, leadStateReport } from "../../shared/admin_schemas.ts";
import { getJson } from "./api.ts";
import { Card, LoadError, Loading } from "./Card.tsx";
import { ComparedCells, Delta } from "./Delta.tsx";
import { FilterButton } from "./filter_context.tsx";
import { formatComparison, formatInt, visibleText } from "./format.ts";
import { type Period, RANKING_CACHE_MS, viewKeyOf, viewQuery } from "./queries.ts";
import { Term } from "./Term.tsx";
import { useNearScreen } from "./near_screen.ts";

const SUBTITLES: Record<AudienceDimension, string> = {
  device: "Celular, tablet ou computador, pelo navegador de cada visita",
  browser: "O navegador de cada visita (aplicativos como Instagram e WhatsApp contam como o próprio app)",
  os: "O sistema operacional de cada visita",
  country: "Pelo endereço da visita, consultado numa base local e não guardado",
  region: "Estados do Brasil, quando a base de endereços configurada os tem",
};

function useAudience(dimension: AudienceDimension, period: Period, near: boolean) {
  return useQuery({
    queryKey: ["audience", dimension, ...viewKeyOf(period)],
    queryFn: () => getJson(`/api/tracking/audience/${dimension}?${viewQuery(period)}`, audienceReport),
    enabled: near,
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

function AudiencePanel(
  { dimension, period, near }: { dimension: AudienceDimension; period: Period; near: boolean },
) {
  const q = useAudience(dimension, period, near);
  const title = AUDIENCE_TITLES[dimension];
  return (
    <Card
      id={`audience-${dimension}`}
      title={title}
      subtitle={SUBTITLES[dimension]}
      className="audience-card"
    >
      {!near
        ? <p className="admin-muted card-waiting">Carregado ao rolar até aqui.</p>
        : q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.rows.length === 0
        ? <p className="card-empty">Nenhuma visita no período</p>
        : (
          <>
            <div className="table-wrap" tabIndex={0} role="region" aria-label={`Tabela: ${title}`}>
              <table className="conversion-table audience-table">
                <thead>
                  <tr>
                    <th scope="col">{AUDIENCE_KEY_LABELS[dimension]}</th>
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
                  </tr>
                </thead>
                <tbody>
                  {q.data.rows.map((row) => (
                    <tr key={row.key} data-key={row.key}>
                      <th scope="row">
                        {row.key === ""
                          ? <span className="admin-muted">{row.label}</span>
                          : (
                            <FilterButton filterKey={dimension} value={row.key}>
                              {visibleText(row.label)}
                            </FilterButton>
                          )}
                      </th>
                      <ComparedCells
                        now={row}
                        before={{
                          visits: row.previousVisits,
                          clicks: row.previousClicks,
                          leads: row.previousLeads,
                          leadRate: row.previousLeadRate,
                        }}
                      />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="admin-muted card-note">
              Setas: comparação com o período anterior ({formatComparison(q.data.comparison)}).
            </p>
          </>
        )}
    </Card>
  );
}

function LeadStatesPanel({ period, near }: { period: Period; near: boolean }) {
  const q = useQuery({
    queryKey: ["lead-states", ...viewKeyOf(period)],
    queryFn: () => getJson(`/api/tracking/lead-states?${viewQuery(period)}`, leadStateReport),
    enabled: near,
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
  return (
    <Card
      id="lead-states"
      title="Leads por estado"
      subtitle="Pelo DDD do WhatsApp informado no formulário"
      className="audience-card"
    >
      {!near
        ? <p className="admin-muted card-waiting">Carregado ao rolar até aqui.</p>
        : q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.rows.length === 0
        ? <p className="card-empty">Nenhum lead no período</p>
        : (
          <>
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Tabela: Leads por estado">
              <table className="conversion-table audience-table">
                <thead>
                  <tr>
                    <th scope="col">Estado</th>
                    <th scope="col" className="num">
                      <Term id="leads" />
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.rows.map((row) => (
                    <tr key={row.state} data-key={row.state}>
                      <th scope="row">
                        {row.state
                          ? `${row.name} (${row.state})`
                          : <span className="admin-muted">{row.name}</span>}
                      </th>
                      <td className="num">
                        {formatInt(row.leads)}
                        <Delta current={row.leads} previous={row.previousLeads} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="admin-muted card-note">
              Setas: comparação com o período anterior ({formatComparison(q.data.comparison)}).
            </p>
          </>
        )}
    </Card>
  );
}

/** The six panels, two per row, loaded when they come near the screen. */
export function AudiencePanels({ period }: { period: Period }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearScreen(box);
  return (
    <section className="audience-panels" id="audience" ref={box} aria-label="Quem são os visitantes">
      {AUDIENCE_DIMENSIONS.map((d) => <AudiencePanel key={d} dimension={d} period={period} near={near} />)}
      <LeadStatesPanel period={period} near={near} />
    </section>
  );
}
