// The dashboard's WhatsApp clicks (kind 'whatsapp', counted apart from the plan clicks) and the hour-by-hour
// chart of a one-day period.
import type { Db } from "../db/client.ts";
import type { DailyCount, DayRange } from "../db/dashboard_queries.ts";
import { rollupState } from "../db/rollups.ts";
import { hourlyCounts } from "../db/hourly.ts";
import {
  dailyWhatsappClicks,
  topWhatsappPages,
  whatsappByChannel,
  whatsappBySource,
  whatsappClickTotal,
} from "../db/whatsapp_clicks.ts";
import { conversionRate } from "../shared/metrics.ts";
import { whatsappTotalUnderFilters, whatsappUnderFilters } from "../db/filter_actions.ts";
import { filterEntries, type Filters } from "../shared/filters.ts";
import { comparisonOf, RANKING_SIZE } from "./dashboard_reports.ts";

export interface WhatsappReport {
  /** WhatsApp clicks in the period. */
  total: number;
  /** The same in the days the period is compared with (`until`: the time their last day is cut at). */
  previous: { start: string; end: string; until: string | null; total: number };
  daily: DailyCount[];
  byChannel: { channel: string; whatsappClicks: number }[];
  bySource: { utmSource: string | null; whatsappClicks: number }[];
  /** The pages with the most WhatsApp clicks. */
  pages: { page: string; clicks: number }[];
}

/** Every WhatsApp-click figure of a period, in one answer. */
export async function whatsappReport(
  db: Db,
  range: DayRange,
  tz: string,
  now: Date,
  filters?: Filters,
): Promise<WhatsappReport> {
  const comparison = comparisonOf(range, tz, now);
  if (filterEntries(filters).length > 0) {
    const f = filters!;
    const [total, previous, all] = await Promise.all([
      whatsappTotalUnderFilters(db, range, tz, null, f),
      whatsappTotalUnderFilters(db, comparison, tz, comparison.until, f),
      whatsappUnderFilters(db, range, tz, f, RANKING_SIZE),
    ]);
    return shape(total, previous, comparison, all.daily, all.byChannel, all.bySource, all.pages);
  }
  const [total, previous, daily, byChannel, bySource, pages] = await Promise.all([
    whatsappClickTotal(db, range, tz),
    whatsappClickTotal(db, comparison, tz, comparison.until),
    dailyWhatsappClicks(db, range, tz),
    whatsappByChannel(db, range, tz),
    whatsappBySource(db, range, tz),
    topWhatsappPages(db, range, tz, RANKING_SIZE),
  ]);
  return shape(total, previous, comparison, daily, byChannel, bySource, pages);
}

function shape(
  total: number,
  previous: number,
  comparison: { start: string; end: string; until: string | null },
  daily: DailyCount[],
  byChannel: WhatsappReport["byChannel"],
  bySource: WhatsappReport["bySource"],
  pages: { key: string; visits: number }[],
): WhatsappReport {
  return {
    total,
    previous: { start: comparison.start, end: comparison.end, until: comparison.until, total: previous },
    daily,
    byChannel: byChannel.sort((a, b) =>
      b.whatsappClicks - a.whatsappClicks || (a.channel < b.channel ? -1 : 1)
    ),
    bySource: bySource.sort((a, b) =>
      b.whatsappClicks - a.whatsappClicks || (a.utmSource ?? "\uffff").localeCompare(b.utmSource ?? "\uffff")
    ),
    pages: pages.map((p) => ({ page: p.key, clicks: p.visits })),
  };
}

/** An hour of the hourly chart: over, under way (partial), or not begun (no counts). */
export type HourState = "done" | "partial" | "future";

export interface HourPoint {
  /** The hour's first instant (ISO). */
  start: string;
  /** Its local time of day, HH:mm. */
  label: string;
  state: HourState;
  visits: number | null;
  clicks: number | null;
  whatsappClicks: number | null;
  leads: number | null;
  /** leads / plan clicks × 100, one decimal, 0 without clicks; null for an hour not begun. */
  conversionRate: number | null;
}

export interface HourlyReport {
  date: string;
  /**
   * False when the day's raw rows are purged (older than RETENTION_DAYS): only its daily roll-up remains, so
   * there are no hours to draw.
   */
  available: boolean;
  hours: HourPoint[];
}

/** Local day `date` hour by hour in `tz`, at `now` (the hour under way is partial, later ones are empty). */
export async function hourlyReport(db: Db, date: string, tz: string, now: Date): Promise<HourlyReport> {
  const state = await rollupState(db);
  if (state.purgedThrough !== null && date <= state.purgedThrough) {
    return { date, available: false, hours: [] };
  }
  const rows = await hourlyCounts(db, date, tz);
  const t = now.getTime();
  return {
    date,
    available: true,
    hours: rows.map((r, i) => {
      const end = i + 1 < rows.length ? rows[i + 1].start.getTime() : r.start.getTime() + 3_600_000;
      const hourState: HourState = r.start.getTime() > t ? "future" : end > t ? "partial" : "done";
      const future = hourState === "future";
      return {
        start: r.start.toISOString(),
        label: r.label,
        state: hourState,
        visits: future ? null : r.visits,
        clicks: future ? null : r.clicks,
        whatsappClicks: future ? null : r.whatsappClicks,
        leads: future ? null : r.leads,
        conversionRate: future ? null : conversionRate(r.leads, r.clicks),
      };
    }),
  };
}
