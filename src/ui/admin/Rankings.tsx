import { useState } from "react";
import { Card, LoadError, Loading } from "./Card.tsx";
import { visibleText } from "./format.ts";
import { type Period, type RankingItem, type RankingKind, useRanking } from "./queries.ts";
import { panelCsvHref } from "./panels.ts";
import { RankingFull, RankRow } from "./RankingFull.tsx";
import { sourceLabel } from "../../shared/metrics.ts";
import { Term } from "./Term.tsx";
import type { FilterKey } from "../../shared/filters.ts";
import { WhatsappPagesRanking } from "./WhatsappPanel.tsx";

interface RankingProps<K extends RankingKind> {
  id: string;
  title: string;
  kind: K;
  period: Period;
  label: (item: RankingItem<K>) => string;
  empty: string;
  subtitle?: string;
  /** What is counted: visits (default) or entries (sessions that started on the page). */
  unit?: [string, string];
  /** A switch that asks the ranking with extra query parameters while on: [label, parameters]. */
  toggle?: [string, string];
  /** The filter a row adds when clicked, and the row's value for it. */
  filter: [FilterKey, (item: RankingItem<K>) => string];
}

function Ranking<K extends RankingKind>(props: RankingProps<K>) {
  const unit = props.unit ?? ["visita", "visitas"];
  const [on, setOn] = useState(false);
  const [full, setFull] = useState(false);
  const extra = on && props.toggle ? props.toggle[1] : "";
  const q = useRanking(props.kind, props.period, extra);
  return (
    <Card
      id={props.id}
      title={props.title}
      subtitle={props.subtitle}
      className="ranking-card"
      actions={<Term id={props.unit ? "entries" : "visits"} />}
      csv={panelCsvHref(props.kind, props.period, extra)}
    >
      {props.toggle && (
        <label className="ranking-toggle">
          <input
            type="checkbox"
            role="switch"
            checked={on}
            onChange={(e) => setOn(e.target.checked)}
            data-testid={`${props.id}-toggle`}
          />{" "}
          {props.toggle[0]}
        </label>
      )}
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.length === 0
        ? <p className="card-empty">{props.empty}</p>
        : (
          <>
            <ol className="ranking">
              {q.data.map((item, i) => (
                <RankRow
                  key={props.label(item)}
                  rank={i + 1}
                  text={visibleText(props.label(item))}
                  visits={item.visits}
                  previous={"previousVisits" in item ? item.previousVisits : undefined}
                  unit={unit}
                  filter={[props.filter[0], props.filter[1](item)]}
                />
              ))}
            </ol>
            <button
              type="button"
              className="btn btn-outline btn-small ranking-more"
              onClick={() => setFull(true)}
              data-testid={`${props.id}-all`}
            >
              Ver todos
            </button>
          </>
        )}
      {full && (
        <RankingFull
          id={props.id}
          title={props.title}
          kind={props.kind}
          period={props.period}
          extra={extra}
          label={props.label}
          unit={unit}
          filter={props.filter}
          onClose={() => setFull(false)}
        />
      )}
    </Card>
  );
}

/**
 * Top UTM sources, top UTM campaigns, most visited pages (path plus query) (docs/PRODUCT.md, _Dashboard_);
 * added: the sources of every visit (referrers included) and the landing pages, compared with the previous
 * period.
 */
export function Rankings({ period }: { period: Period }) {
  return (
    <div className="rankings" id="rankings">
      <Ranking
        id="rank-traffic-sources"
        title="Principais origens"
        subtitle="A origem UTM, ou o site de onde a visita veio; Direto quando não há nenhum dos dois"
        kind="sources"
        period={period}
        label={(item) => sourceLabel(item.source)}
        filter={["source", (item) => item.source]}
        empty="Nenhuma origem registrada no período"
      />
      <Ranking
        id="rank-sources"
        title="Principais origens UTM"
        subtitle="O parâmetro utm_source do endereço de chegada"
        kind="utm-source"
        period={period}
        label={(item) => item.utmSource}
        filter={["utm_source", (item) => item.utmSource]}
        empty="Nenhuma origem UTM registrada no período"
      />
      <Ranking
        id="rank-campaigns"
        title="Principais campanhas UTM"
        subtitle="O parâmetro utm_campaign do endereço de chegada"
        kind="utm-campaign"
        period={period}
        label={(item) => item.utmCampaign}
        filter={["utm_campaign", (item) => item.utmCampaign]}
        empty="Nenhuma campanha UTM registrada no período"
      />
      <Ranking
        id="rank-pages"
        title="Páginas mais visitadas"
        kind="pages"
        period={period}
        label={(item) => item.page}
        filter={["page", (item) => item.page]}
        empty="Nenhuma página visitada no período"
        subtitle="Caminho e parâmetros do endereço, sem os identificadores de clique de anúncios"
        toggle={["por caminho", "by=path"]}
      />
      <Ranking
        id="rank-entry-pages"
        title="Páginas de entrada"
        subtitle="A primeira página de cada sessão (sem os parâmetros do endereço)"
        kind="entry-pages"
        period={period}
        label={(item) => item.page}
        filter={["entry_page", (item) => item.page]}
        empty="Nenhuma página de entrada registrada no período"
        unit={["entrada", "entradas"]}
      />
      <WhatsappPagesRanking period={period} />
    </div>
  );
}
