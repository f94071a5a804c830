import { Card, LoadError, Loading } from "./Card.tsx";
import { formatInt, visibleText } from "./format.ts";
import { type Period, useRanking } from "./queries.ts";

interface RankingProps<T> {
  id: string;
  title: string;
  kind: "utm-source" | "utm-campaign" | "pages";
  period: Period;
  label: (item: T) => string;
  empty: string;
}

function Ranking<T extends { visits: number }>(props: RankingProps<T>) {
  const q = useRanking<T>(props.kind, props.period);
  return (
    <Card id={props.id} title={props.title} className="ranking-card">
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.length === 0
        ? <p className="card-empty">{props.empty}</p>
        : (
          <ol className="ranking">
            {q.data.map((item, i) => (
              <li key={props.label(item)}>
                <span className="rank" aria-hidden="true">{i + 1}</span>
                <span className="rank-name" title={visibleText(props.label(item))}>
                  <span className="visually-hidden">{i + 1}º:</span> {visibleText(props.label(item))}
                </span>
                <span className="rank-visits">
                  {formatInt(item.visits)} {item.visits === 1 ? "visita" : "visitas"}
                </span>
              </li>
            ))}
          </ol>
        )}
    </Card>
  );
}

const RANKINGS = [
  {
    id: "rank-sources",
    title: "Principais origens (UTM Source)",
    kind: "utm-source",
    field: "utmSource",
    empty: "Nenhuma origem UTM registrada no período",
  },
  {
    id: "rank-campaigns",
    title: "Principais campanhas (UTM Campaign)",
    kind: "utm-campaign",
    field: "utmCampaign",
    empty: "Nenhuma campanha UTM registrada no período",
  },
  {
    id: "rank-pages",
    title: "Páginas mais visitadas",
    kind: "pages",
    field: "page",
    empty: "Nenhuma página visitada no período",
  },
] as const;

/** Section 7: top UTM sources, top UTM campaigns, most visited pages (path plus query). */
export function Rankings({ period }: { period: Period }) {
  return (
    <div className="rankings" id="rankings">
      {RANKINGS.map(({ field, ...ranking }) => (
        <Ranking<Record<typeof field, string> & { visits: number }>
          key={ranking.id}
          {...ranking}
          period={period}
          label={(item) => item[field]}
        />
      ))}
    </div>
  );
}
