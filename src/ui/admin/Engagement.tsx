// Engagement cards (docs/METRICS.md): visits, page views, pages per visit, bounce rate and visit duration
// with their comparison; time on page per page; and "Agora", the visitors of the last 5 minutes.
import { useQuery } from "@tanstack/react-query";
import { Card, LoadError, Loading } from "./Card.tsx";
import { Change, Metric } from "./Metrics.tsx";
import { Term } from "./Term.tsx";
import { formatDecimal, formatInt, formatPercent, visibleText } from "./format.ts";
import { getJson } from "./api.ts";
import { type Period, RANKING_CACHE_MS, viewQuery } from "./queries.ts";
import {
  engagementSummary,
  LIVE_REFRESH_MS,
  LIVE_WINDOW_MINUTES,
  liveAnswer,
  pageTimeRanking,
} from "../../shared/engagement.ts";

/** A duration in seconds as "2min 05s", "45s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}min` : `${m}min ${rest}s`;
}

function useEngagement(p: Period) {
  return useQuery({
    queryKey: ["engagement", p.start, p.end, viewQuery(p)],
    queryFn: () => getJson(`/api/tracking/engagement?${viewQuery(p)}`, engagementSummary),
  });
}

/** Visits, page views, pages per visit, bounce rate and visit duration, each compared like the other cards. */
export function EngagementMetrics({ period }: { period: Period }) {
  const q = useEngagement(period);
  return (
    <Card
      id="engagement"
      title="Visitas e engajamento"
      subtitle="Sessões, páginas vistas e tempo com a página visível"
    >
      {q.isPending ? <Loading /> : q.isError ? <LoadError onRetry={() => q.refetch()} /> : (() => {
        const { current: c, previous: p } = q.data;
        const noVisits = p.sessions === 0;
        return (
          <div className="metric-grid five">
            <Metric label={<Term id="sessions" />} value={formatInt(c.sessions)} testId="sessions">
              <Change current={c.sessions} previous={p.sessions} vs={p} />
            </Metric>
            <Metric label={<Term id="visits" />} value={formatInt(c.pageViews)} testId="page-views">
              <Change current={c.pageViews} previous={p.pageViews} vs={p} />
            </Metric>
            <Metric
              label={<Term id="pagesPerVisit" />}
              value={formatDecimal(c.pagesPerVisit)}
              testId="pages-per-visit"
            >
              <Change current={c.pagesPerVisit} previous={p.pagesPerVisit} noBase={noVisits} vs={p} />
            </Metric>
            <Metric label={<Term id="bounceRate" />} value={formatPercent(c.bounceRate)} testId="bounce-rate">
              <Change current={c.bounceRate} previous={p.bounceRate} points noBase={noVisits} vs={p} />
            </Metric>
            <Metric
              label={<Term id="visitDuration" />}
              value={formatDuration(c.visitSeconds)}
              testId="visit-duration"
              hint="média por visita"
            >
              <Change current={c.visitSeconds} previous={p.visitSeconds} noBase={noVisits} vs={p} />
            </Metric>
          </div>
        );
      })()}
    </Card>
  );
}

/** "Tempo na página": the most viewed pages with their average visible time per page view. */
export function PageTimeRanking({ period }: { period: Period }) {
  const q = useQuery({
    queryKey: ["ranking", "page-time", period.start, period.end, viewQuery(period)],
    queryFn: () => getJson(`/api/tracking/rankings/page-time?${viewQuery(period)}`, pageTimeRanking),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
  return (
    <Card
      id="page-time"
      title="Tempo por página"
      subtitle="Páginas mais vistas, com o tempo médio em que ficaram visíveis"
      className="ranking-card"
      actions={
        <span className="term-stack">
          <Term id="timeOnPage" />
          <Term id="visits" />
        </span>
      }
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.length === 0
        ? <p className="card-empty">Nenhuma página vista no período</p>
        : (
          <ol className="ranking">
            {q.data.map((item, i) => (
              <li key={item.page}>
                <span className="rank" aria-hidden="true">{i + 1}</span>
                <span className="rank-name" title={visibleText(item.page)}>
                  <span className="visually-hidden">{i + 1}º:</span> {visibleText(item.page)}
                </span>
                <span className="rank-visits">
                  <strong className="rank-time" data-testid="page-time">
                    {formatDuration(item.averageSeconds)}
                  </strong>
                  <span className="delta neutral">
                    {formatInt(item.views)} {item.views === 1 ? "visita" : "visitas"}
                  </span>
                </span>
              </li>
            ))}
          </ol>
        )}
    </Card>
  );
}

/** HH:mm:ss of an instant, in the browser's clock (when the panel last heard from the server). */
function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * "Agora": asked every 30 s while the tab is visible, never while it is hidden (TanStack Query pauses the
 * interval when the document is hidden), and at once on coming back if the answer is older than that.
 */
export function LivePanel() {
  const q = useQuery({
    queryKey: ["live"],
    queryFn: () => getJson("/api/tracking/live", liveAnswer),
    refetchInterval: LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: LIVE_REFRESH_MS,
  });
  return (
    <Card
      id="live"
      title="Agora"
      subtitle={`Visitantes nos últimos ${LIVE_WINDOW_MINUTES} minutos, atualizado a cada 30 segundos`}
      actions={<Term id="liveVisitors" />}
    >
      {q.isPending ? <Loading /> : q.isError ? <LoadError onRetry={() => q.refetch()} /> : (
        <>
          <p className="live-count">
            <span className="live-dot" aria-hidden="true" />
            <strong data-testid="live-visitors">{formatInt(q.data.visitors)}</strong>{" "}
            {q.data.visitors === 1 ? "visitante agora" : "visitantes agora"}
          </p>
          {q.data.pages.length === 0
            ? <p className="card-empty">Ninguém no site nos últimos {LIVE_WINDOW_MINUTES} minutos</p>
            : (
              <ol className="ranking live-pages">
                {q.data.pages.map((item) => (
                  <li key={item.page}>
                    <span className="rank-name" title={visibleText(item.page)}>{visibleText(item.page)}</span>
                    <span className="rank-visits">
                      {formatInt(item.visitors)} {item.visitors === 1 ? "visitante" : "visitantes"}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          <p className="admin-muted card-note" data-testid="live-updated">
            Atualizado às {clockTime(q.dataUpdatedAt)}
          </p>
        </>
      )}
    </Card>
  );
}
