// Engagement figures (docs/METRICS.md): their formulas, shared by the server that answers them and the
// dashboard that shows them, and the API's answers as zod schemas (the dashboard parses with them).
import { z } from "./zod.ts";
import { ratePercent, round1 } from "./dashboard_math.ts";

/** "Agora" counts the visitors of the last this many minutes. */
export const LIVE_WINDOW_MINUTES = 5;
/** "Agora" asks again every this many ms while the dashboard's tab is visible. */
export const LIVE_REFRESH_MS = 30_000;

/** Páginas por visita: page views ÷ visits, one decimal, 0 without visits. */
export function pagesPerVisit(pageViews: number, sessions: number): number {
  return sessions > 0 ? round1(pageViews / sessions) : 0;
}

/** Taxa de rejeição: visits with one page view and no click ÷ visits × 100, one decimal. */
export function bounceRate(bounces: number, sessions: number): number {
  return ratePercent(bounces, sessions);
}

/** An average of visible time in whole seconds: ms ÷ count, 0 when the count is 0. */
export function averageSeconds(engagedMs: number, count: number): number {
  return count > 0 ? Math.round(engagedMs / count / 1000) : 0;
}

const figures = z.object({
  start: z.string(),
  end: z.string(),
  sessions: z.number(),
  pageViews: z.number(),
  bounces: z.number(),
  engagedMs: z.number(),
  pagesPerVisit: z.number(),
  bounceRate: z.number(),
  /** Duração da visita: the average, in seconds. */
  visitSeconds: z.number(),
});

/** GET /api/tracking/engagement: the period's figures and those of what it is compared with. */
export const engagementSummary = z.object({
  current: figures,
  previous: figures.extend({ until: z.string().nullable() }),
});
export type EngagementSummary = z.infer<typeof engagementSummary>;
export type EngagementFigures = z.infer<typeof figures>;

/** GET /api/tracking/rankings/page-time: the most viewed pages and their average visible time. */
export const pageTimeRanking = z.array(
  z.object({ page: z.string(), views: z.number(), engagedMs: z.number(), averageSeconds: z.number() }),
);
export type PageTimeItem = z.infer<typeof pageTimeRanking>[number];

/** GET /api/tracking/live: visitors of the last minutes and the page each is on. */
export const liveAnswer = z.object({
  since: z.string(),
  visitors: z.number(),
  pages: z.array(z.object({ page: z.string(), visitors: z.number() })),
});
export type LiveAnswer = z.infer<typeof liveAnswer>;
