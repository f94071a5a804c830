import { leadState } from "../shared/br_states.ts";
import type { Db } from "../db/client.ts";
import {
  allTimeClicksAndConversions,
  conversionBySource,
  dailyClicks,
  type DailyCount,
  dailyLeads,
  dailyUniqueVisitors,
  type DayRange,
  type EventTotals,
  eventTotals,
} from "../db/dashboard_queries.ts";
import { type VisitorTotals, visitorTotals } from "../db/unique_visitors.ts";
import { topRanked } from "../db/rankings.ts";
import { countLeads, type LeadFilter, type LeadRow, listLeads } from "../db/lead_list.ts";
import { filteredDailyLeads, filteredDailyUniqueVisitors, utmDetailConversions } from "../db/filtered.ts";
import {
  conversionBySourceUnderFilters,
  dailyClicksUnderFilters,
  eventTotalsUnderFilters,
} from "../db/filter_actions.ts";
import { rankingUnderFilters } from "../db/filter_ranks.ts";
import { rolledFilterDailyUniqueVisitors } from "../db/filter_engagement.ts";
import { addDays, type ComparisonRange, comparisonRange, timeIn, todayIn } from "../shared/dashboard_math.ts";
import { type Filters, noFilters } from "../shared/filters.ts";
import { visitorTotalsUnderFilters } from "../db/filter_visitors.ts";
import { rolledUtmDetail, type UtmDetailColumn, type UtmDetailRow } from "../db/utm_detail.ts";
import { conversionRate } from "../shared/metrics.ts";

/** How many items each ranking lists. */
export const RANKING_SIZE = 10;

/** The last `days` local days, today included. */
export function lastDays(days: number, tz: string, now: Date): DayRange {
  const end = todayIn(tz, now);
  return { start: addDays(end, -(days - 1)), end };
}

// Every report takes the dashboard's filters (shared/filters.ts): without any it reads the roll-ups as it
// always did; with some, the raw rows (db/filtered.ts).

/** Daily leads of a range. */
export function leadSeries(db: Db, range: DayRange, tz: string, f?: Filters): Promise<DailyCount[]> {
  return noFilters(f) ? dailyLeads(db, range, tz) : filteredDailyLeads(db, range, tz, f!);
}

/** Daily plan-button clicks of a range. */
export function clickSeries(db: Db, range: DayRange, tz: string, f?: Filters): Promise<DailyCount[]> {
  return noFilters(f) ? dailyClicks(db, range, tz) : dailyClicksUnderFilters(db, range, tz, f!);
}

/** Daily unique visitors of a range. */
export async function uniqueVisitSeries(
  db: Db,
  range: DayRange,
  tz: string,
  f?: Filters,
): Promise<DailyCount[]> {
  if (noFilters(f)) return await dailyUniqueVisitors(db, range, tz);
  // One filter a page view carries, or two of the session's touch: its roll-up (db/filter_engagement.ts);
  // else the raw rows.
  return (await rolledFilterDailyUniqueVisitors(db, range, tz, f!)) ??
    await filteredDailyUniqueVisitors(db, range, tz, f!);
}

/** All of time, for the stats call without dates under filters. */
const ALL_TIME: DayRange = { start: "1970-01-01", end: "9999-12-30" };

export interface TrackingStats {
  clicks: number;
  conversions: number;
  /** conversions / clicks × 100, one decimal, 0 without clicks. */
  rate: number;
}

/** Clicks, conversions and their rate for a range, or for all time when no range is given. */
export async function trackingStats(
  db: Db,
  range: DayRange | undefined,
  tz: string,
  f?: Filters,
): Promise<TrackingStats> {
  const { clicks, conversions } = !noFilters(f)
    ? await eventTotalsUnderFilters(db, range ?? ALL_TIME, tz, null, f!)
    : range
    ? await eventTotals(db, range, tz)
    : await allTimeClicksAndConversions(db, tz);
  return { clicks, conversions, rate: conversionRate(conversions, clicks) };
}

export interface PeriodSummary extends EventTotals, VisitorTotals {
  start: string;
  end: string;
  /** conversions / clicks × 100. */
  conversionRate: number;
  /** leads / clicks × 100 (the chart's rate, over the whole period): the same, a conversion being a lead. */
  leadRate: number;
}

/** What a period is compared with at `now` (shared/dashboard_math.ts, comparisonRange). */
export function comparisonOf(range: DayRange, tz: string, now: Date): ComparisonRange {
  return comparisonRange(range, todayIn(tz, now), timeIn(tz, now));
}

async function summarize(
  db: Db,
  range: DayRange,
  tz: string,
  until: string | null,
  f?: Filters,
): Promise<PeriodSummary> {
  const [totals, visitors] = await Promise.all(
    noFilters(f) ? [eventTotals(db, range, tz, until), visitorTotals(db, range, tz, until)] as const : [
      eventTotalsUnderFilters(db, range, tz, until, f!),
      visitorTotalsUnderFilters(db, range, tz, until, f!),
    ] as const,
  );
  return {
    ...range,
    ...totals,
    ...visitors,
    conversionRate: conversionRate(totals.conversions, totals.clicks),
    leadRate: conversionRate(totals.leads, totals.clicks),
  };
}

/**
 * Headline figures of a period and of what it is compared with at `now` (comparisonOf): `previous.until` is
 * the local time its last day is cut at, or null for whole days.
 */
export async function periodSummary(
  db: Db,
  range: DayRange,
  tz: string,
  now: Date,
  f?: Filters,
): Promise<{ current: PeriodSummary; previous: PeriodSummary & { until: string | null } }> {
  const comparison = comparisonOf(range, tz, now);
  const [current, previous] = await Promise.all([
    summarize(db, range, tz, null, f),
    summarize(db, comparison, tz, comparison.until, f),
  ]);
  return { current, previous: { ...previous, until: comparison.until } };
}

/** Top UTM sources by visits. */
export async function utmSourceRanking(db: Db, range: DayRange, tz: string, f?: Filters) {
  const rows = noFilters(f)
    ? await topRanked(db, "utm_source", range, tz, RANKING_SIZE)
    : await rankingUnderFilters(db, "utm_source", range, tz, RANKING_SIZE, f);
  return rows.map((r) => ({
    utmSource: r.key,
    visits: r.visits,
  }));
}

/** Top UTM campaigns by visits. */
export async function utmCampaignRanking(db: Db, range: DayRange, tz: string, f?: Filters) {
  const rows = noFilters(f)
    ? await topRanked(db, "utm_campaign", range, tz, RANKING_SIZE)
    : await rankingUnderFilters(db, "utm_campaign", range, tz, RANKING_SIZE, f);
  return rows.map((r) => ({
    utmCampaign: r.key,
    visits: r.visits,
  }));
}

/** Most visited pages (path plus query, without click ids), or paths alone (`byPath`). */
export async function pageRanking(db: Db, range: DayRange, tz: string, byPath = false, f?: Filters) {
  const rows = noFilters(f)
    ? await topRanked(db, byPath ? "page_path" : "page", range, tz, RANKING_SIZE)
    : await rankingUnderFilters(db, byPath ? "page_path" : "page", range, tz, RANKING_SIZE, f);
  return rows.map((r) => ({
    page: r.key,
    visits: r.visits,
  }));
}

/** Clicks, conversions and rate per UTM source, most clicked first. */
export async function conversionByUtmSource(db: Db, range: DayRange, tz: string, f?: Filters) {
  const rows = noFilters(f)
    ? await conversionBySource(db, range, tz)
    : await conversionBySourceUnderFilters(db, range, tz, f!);
  return rows.map((r) => ({ ...r, rate: conversionRate(r.conversions, r.clicks) }));
}

/**
 * Visits, plan clicks and leads per utm_content or utm_term value, the `limit` first (all with null):
 * unfiltered from the roll-up (db/utm_detail.ts) when it has its backfill, else from the raw rows
 * (db/filtered.ts utmDetailConversions), which count the same.
 */
export async function utmDetailRows(
  db: Db,
  column: UtmDetailColumn,
  range: DayRange,
  tz: string,
  limit: number | null,
  f?: Filters,
): Promise<UtmDetailRow[]> {
  const rolled = noFilters(f) ? await rolledUtmDetail(db, column, range, tz, limit) : null;
  return rolled ?? await utmDetailConversions(db, column, range, tz, limit, f);
}

/**
 * "Criativos (utm_content)" or "Palavras-chave (utm_term)": visits, plan clicks and leads per value, and
 * leads / clicks × 100.
 */
export async function utmDetailRanking(
  db: Db,
  column: UtmDetailColumn,
  range: DayRange,
  tz: string,
  f?: Filters,
) {
  return (await utmDetailRows(db, column, range, tz, RANKING_SIZE, f)).map((r) => ({
    value: r.key,
    visits: r.visits,
    clicks: r.clicks,
    leads: r.leads,
    rate: conversionRate(r.leads, r.clicks),
  }));
}

/** Leads matching a filter, newest first, and how many match in all. */
export async function findLeads(
  db: Db,
  filter: LeadFilter,
  tz: string,
): Promise<{ leads: LeadRow[]; total: number }> {
  const [leads, total] = await Promise.all([
    listLeads(db, filter, tz),
    filter.limit === undefined ? Promise.resolve(-1) : countLeads(db, filter, tz),
  ]);
  return {
    leads: leads.map((l) => ({ ...l, state: leadState(l.whatsapp, l.page) })),
    total: total < 0 ? leads.length : total,
  };
}
