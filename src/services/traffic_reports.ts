// Where visitors come from (issue 18): channels, traffic sources (referrers included) and landing pages, each
// with the days it is compared with (comparisonOf), as the dashboard's other figures.
import type { Db } from "../db/client.ts";
import { channelActions, type DayRange, leadsByChannel } from "../db/dashboard_queries.ts";
import { type RolledRanking, topRanked, topRankedWithPrevious } from "../db/rankings.ts";
import { filteredLeadsByChannel } from "../db/filtered.ts";
import { channelActionsUnderFilters } from "../db/filter_actions.ts";
import { rankingUnderFilters, rankingWithPreviousUnderFilters } from "../db/filter_ranks.ts";
import { type Filters, noFilters } from "../shared/filters.ts";
import { conversionRate } from "../shared/metrics.ts";
import { CHANNELS } from "../shared/channels.ts";
import { comparisonOf, RANKING_SIZE } from "./dashboard_reports.ts";

export interface ChannelRow {
  channel: string;
  /** Page views of sessions from this channel. */
  visits: number;
  clicks: number;
  conversions: number;
  /** Leads whose last touch is this channel. */
  leads: number;
  /** leads / clicks × 100 (the chart's rate). */
  leadRate: number;
  /** conversions / clicks × 100 (as conversion by UTM source): the same as leadRate. */
  conversionRate: number;
}

async function channelRows(db: Db, range: DayRange, tz: string, f?: Filters): Promise<ChannelRow[]> {
  const limit = CHANNELS.length + 10;
  const [visits, actions, leads] = await Promise.all(
    noFilters(f)
      ? [
        topRanked(db, "channel", range, tz, limit),
        channelActions(db, range, tz),
        leadsByChannel(db, range, tz),
      ]
      : [
        rankingUnderFilters(db, "channel", range, tz, limit, f),
        channelActionsUnderFilters(db, range, tz, f!),
        filteredLeadsByChannel(db, range, tz, f!),
      ],
  );
  const rows = new Map<string, ChannelRow>();
  const row = (channel: string) => {
    let r = rows.get(channel);
    if (!r) {
      r = { channel, visits: 0, clicks: 0, conversions: 0, leads: 0, leadRate: 0, conversionRate: 0 };
      rows.set(channel, r);
    }
    return r;
  };
  for (const v of visits) row(v.key).visits = v.visits;
  for (const a of actions) row(a.channel).clicks = a.clicks;
  // A conversion is a stored lead (db/dashboard_queries.ts eventTotals): one count, under both names.
  for (const l of leads) Object.assign(row(l.channel), { leads: l.leads, conversions: l.leads });
  return [...rows.values()]
    .map((r) => ({
      ...r,
      leadRate: conversionRate(r.leads, r.clicks),
      conversionRate: conversionRate(r.conversions, r.clicks),
    }))
    .sort((a, b) =>
      b.visits - a.visits || b.clicks - a.clicks || b.leads - a.leads || (a.channel < b.channel ? -1 : 1)
    );
}

/**
 * Visits, clicks, conversions and leads per channel, in the period and in the days it is compared with at
 * `now` (comparisonOf, whole days), which it answers as `comparison`.
 */
export async function channelReport(db: Db, range: DayRange, tz: string, now: Date, f?: Filters) {
  const { start, end } = comparisonOf(range, tz, now);
  const [current, previous] = await Promise.all([
    channelRows(db, range, tz, f),
    channelRows(db, { start, end }, tz, f),
  ]);
  return { current, previous, comparison: { start, end } };
}

/** The top items of a ranking, each with its visits (entries for landing pages) in the comparison days. */
async function rankingWithPrevious(
  db: Db,
  ranked: RolledRanking,
  range: DayRange,
  tz: string,
  now: Date,
  f?: Filters,
) {
  const { start, end } = comparisonOf(range, tz, now);
  return noFilters(f)
    ? await topRankedWithPrevious(db, ranked, range, { start, end }, tz, RANKING_SIZE)
    : await rankingWithPreviousUnderFilters(db, ranked, range, { start, end }, tz, RANKING_SIZE, f!);
}

/** Most visited traffic sources: UTM source, else the referrer's name or host, else "direto". */
export async function trafficSourceRanking(db: Db, range: DayRange, tz: string, now: Date, f?: Filters) {
  return (await rankingWithPrevious(db, "source", range, tz, now, f)).map(({ key, ...r }) => ({
    source: key,
    ...r,
  }));
}

/** Landing pages (path without query) by entries: sessions that started on them. */
export async function entryPageRanking(db: Db, range: DayRange, tz: string, now: Date, f?: Filters) {
  return (await rankingWithPrevious(db, "entry_page", range, tz, now, f)).map(({ key, ...r }) => ({
    page: key,
    ...r,
  }));
}
