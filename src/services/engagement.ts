// Engagement and "Agora" for the dashboard (docs/METRICS.md): visits, page views, pages per visit, bounce
// rate and visit duration with their comparison, time on page per page, and the visitors of the last minutes.
import type { Db } from "../db/client.ts";
import type { DayRange } from "../db/dashboard_queries.ts";
import { engagementTotals, pageEngagement } from "../db/engagement.ts";
import { liveVisitors } from "../db/live.ts";
import {
  averageSeconds,
  bounceRate,
  type EngagementFigures,
  type EngagementSummary,
  LIVE_WINDOW_MINUTES,
  type LiveAnswer,
  pagesPerVisit,
  type PageTimeItem,
} from "../shared/engagement.ts";
import { comparisonOf, RANKING_SIZE } from "./dashboard_reports.ts";
import { filteredEngagementTotals, filteredPageEngagement } from "../db/filtered.ts";
import { rolledFilterPageEngagement } from "../db/filter_page_engagement.ts";
import { rolledFilterEngagementTotals } from "../db/filter_engagement.ts";
import { filterEntries, type Filters } from "../shared/filters.ts";

async function figuresOf(
  db: Db,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters | undefined,
): Promise<EngagementFigures> {
  // One filter a page view carries, or two of the session's touch: its roll-up (db/filter_engagement.ts);
  // else the raw rows.
  const t = filterEntries(f).length > 0
    ? (await rolledFilterEngagementTotals(db, range, tz, until, f!)) ??
      await filteredEngagementTotals(db, range, tz, until, f!)
    : await engagementTotals(db, range, tz, until);
  return {
    start: range.start,
    end: range.end,
    ...t,
    pagesPerVisit: pagesPerVisit(t.pageViews, t.sessions),
    bounceRate: bounceRate(t.bounces, t.sessions),
    visitSeconds: averageSeconds(t.engagedMs, t.sessions),
  };
}

/** The period's engagement figures and those of what it is compared with at `now` (comparisonOf). */
export async function engagementSummary(
  db: Db,
  range: DayRange,
  tz: string,
  now: Date,
  f?: Filters,
): Promise<EngagementSummary> {
  const comparison = comparisonOf(range, tz, now);
  const [current, previous] = await Promise.all([
    figuresOf(db, range, tz, null, f),
    figuresOf(db, comparison, tz, comparison.until, f),
  ]);
  return { current, previous: { ...previous, until: comparison.until } };
}

/** "Tempo na página": the most viewed pages of the period with their average visible time per page view. */
export async function pageTimeRanking(
  db: Db,
  range: DayRange,
  tz: string,
  _now?: Date,
  f?: Filters,
): Promise<PageTimeItem[]> {
  const rows = filterEntries(f).length > 0
    ? (await rolledFilterPageEngagement(db, range, tz, RANKING_SIZE, f!)) ??
      await filteredPageEngagement(db, range, tz, RANKING_SIZE, f!)
    : await pageEngagement(db, range, tz, RANKING_SIZE);
  return rows.map((r) => ({
    ...r,
    averageSeconds: averageSeconds(r.engagedMs, r.views),
  }));
}

/** How many pages "Agora" lists. */
export const LIVE_PAGES = 20;

/** "Agora": the visitors of the last LIVE_WINDOW_MINUTES minutes and the page each is on. */
export async function liveNow(db: Db, now: Date): Promise<LiveAnswer> {
  const since = new Date(now.getTime() - LIVE_WINDOW_MINUTES * 60_000);
  const live = await liveVisitors(db, since, now, LIVE_PAGES);
  return { since: since.toISOString(), ...live };
}
