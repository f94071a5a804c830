// Dashboard aggregations. Days are calendar days in the analytics time zone: a range [start, end] is the
// half-open interval from start's local midnight to the local midnight after end, so the timestamp indexes
// are used; grouping converts each instant to its local date.
//
// Events up to a couple of minutes ago are rolled up (migrations/00006_closed_day_rollups.sql): every query
// splits its range at the roll-up watermark inside its own statement (one snapshot), reading what is before
// it from the roll-ups and what is after it from the raw rows, so no event is counted twice or missed. Unique
// visitors are exact over up to 62 days that still have raw rows (00009); over purged days they are the sum of
// the daily uniques (00005).
import {
  type DailyCount,
  type DayRange,
  EXACT_VISITOR_DAYS,
  LINK_WINDOW_DAYS,
} from "../shared/dashboard_math.ts";
import type { Queryable } from "./client.ts";
import { ENTRY_PAGE } from "./rollups.ts";

export type { DailyCount, DayRange };

// $1 start date, $2 end date, $3 time zone.
export const BOUNDS = (column: string) =>
  `${column} >= ($1::date::timestamp at time zone $3) and ${column} < (($2::date + 1)::timestamp at time zone $3)`;
// The range split at the watermarks, as CTEs: days b.s..b.re come from the roll-ups (b.re possibly only up to
// the watermark instant), events from b.raw_from to b.raw_to (the end of b.e) from the raw rows; b.s..b.pe are
// purged days, and from b.xs on days have visitor bitmaps (00006). With a cut (`cut`: a parameter holding a
// local time of day, or null), only the events of b.e before that time count: when the roll-ups already passed
// it, day b.e is read from the raw rows instead (its earlier days are final then).
export const splitWith = (cut: string) =>
  `st0 as (
    select coalesce(r.through, '-infinity'::date) as through,
           coalesce(r.until, (coalesce(r.through, '-infinity'::date) + 1)::timestamp at time zone $3) as until,
           coalesce(r.purged_through, '-infinity'::date) as purged,
           ($2::date + ${cut}::time)::timestamp at time zone $3 as cut
      from (select 1) one left join rollup_state r on true),
  st as (
    select case when st0.until > st0.cut then least(st0.through, $2::date - 1) else st0.through end as through,
           case when st0.until > st0.cut then least(st0.until, $2::date::timestamp at time zone $3)
                else st0.until end as until,
           st0.purged, coalesce(st0.cut, ($2::date + 1)::timestamp at time zone $3) as raw_to
      from st0),
  b as (
    select $1::date as s, $2::date as e, least($2::date, through) as re,
           greatest(until, $1::date::timestamp at time zone $3) as raw_from, raw_to,
           least($2::date, purged) as pe, greatest($1::date, purged + 1) as xs
      from st)`;
export const SPLIT = splitWith("null");
// Raw rows of the range after the watermark (needs b in the from list).
export const RAW = (column: string) => `${column} >= b.raw_from and ${column} < b.raw_to`;
// Roll-up rows of the range up to the watermark (needs b in the from list).
export const ROLLED = "day between b.s and b.re";
export const ROLLUP_DAY = "to_char(day, 'YYYY-MM-DD')";

/** Leads per local day in the range (days without leads are absent). */
export async function dailyLeads(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  return await db.query<DailyCount>(
    // One index range count per local day: no time-zone conversion or sort per lead.
    `select to_char(d, 'YYYY-MM-DD') as date, n::int as count from (
       select d, (select count(*) from leads
                   where submitted_at >= (d at time zone $3) and submitted_at < ((d + interval '1 day') at time zone $3)) as n
         from generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') d
     ) t where n > 0 order by d`,
    [range.start, range.end, tz],
  );
}

/** Plan-button clicks per local day in the range (days without clicks are absent). */
export async function dailyClicks(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  return await db.query<DailyCount>(
    `with ${SPLIT}
     select date, sum(n)::int as count from (
       select to_char(day, 'YYYY-MM-DD') as date, count(*) as n from (
         select (occurred_at at time zone $3)::date as day from clicks, b
          where ${RAW("occurred_at")} and kind = 'plan'
       ) c group by day
       union all
       select ${ROLLUP_DAY}, clicks from daily_totals, b where ${ROLLED} and clicks > 0
     ) t group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

/** Distinct visitors per local day in the range (days without visits are absent). */
export async function dailyUniqueVisitors(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  // distinct in a subquery lets the planner hash instead of sorting for count(distinct).
  return await db.query<DailyCount>(
    `with ${SPLIT}
     select date, sum(n)::int as count from (
       select to_char(day, 'YYYY-MM-DD') as date, count(*) as n from (
         select distinct (occurred_at at time zone $3)::date as day,
                date_trunc('month', occurred_at at time zone $3)::date as month, visitor_key
           from visits, b where ${RAW("occurred_at")}
       ) d
       -- The watermark's day is partly rolled up: a key already counted there is not counted again. A
       -- scalar subquery per key (a primary-key lookup): these are the last few minutes' keys only.
       where coalesce((select v.days from visitor_days v where v.month = d.month and v.visitor_key = d.visitor_key), 0)
             & (1 << (extract(day from d.day)::int - 1)) = 0
       group by day
       union all
       select ${ROLLUP_DAY}, unique_visitors from daily_totals, b where ${ROLLED} and visits > 0
     ) t group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

export interface VisitorTotals {
  /** Distinct visitors (see `approximate`). */
  uniqueVisitors: number;
  visits: number;
  /**
   * True when uniqueVisitors is an upper bound: the period has purged days (their daily uniques are added)
   * or its rolled-up days span more than EXACT_VISITOR_DAYS (an address returning after 62 days or more
   * counts again). Either way it never decreases when the period grows and is never below the exact count of
   * any 62 days inside it.
   */
  approximate: boolean;
}

/**
 * Unique visitors and page views of a period (exact up to EXACT_VISITOR_DAYS days of unpurged data); with
 * `until` (a local time of day, HH:mm:ss), only the visits of the last day before that time.
 */
export async function visitorTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null = null,
): Promise<VisitorTotals> {
  // Distinct visitors = visitors of the rolled-up unpurged days (visitor_spans: exact over their first 62
  // days, then each later day adds its visitors not seen in the 61 days before it, so a longer period never
  // counts fewer) + purged days' daily uniques + raw keys seen neither on those rolled-up days (their
  // visitor_days row has no bit in the range, in its month's `days` or in `before`) nor, under a link key, in
  // an earlier month's raw visit of the range.
  const rows = await db.query<VisitorTotals>(
    `with ${splitWith("$4")},
     -- The rolled-up unpurged days [xs, re] (re before xs when there are none).
     u as (select b.xs, case when isfinite(b.re) and b.re >= b.xs then b.re else b.xs - 1 end as re from b),
     -- Its first (up to) 62 days, exact.
     head as (select u.xs as lo, least(u.re, u.xs + ${
      EXACT_VISITOR_DAYS - 1
    }) as hi from u where u.re >= u.xs),
     raw as (
       select date_trunc('month', occurred_at at time zone $3)::date as month, visitor_key, link_keys
         from visits, b where ${RAW("occurred_at")}),
     raw_keys as (select distinct month, visitor_key from raw),
     -- Only raw rows of an earlier month than the latest can link to another raw row's key.
     raw_linked as (
       select distinct (r.month + make_interval(months => l.i::int))::date as month, l.key as visitor_key
         from raw r, unnest(r.link_keys) with ordinality as l(key, i)
        where r.month < (select max(month) from raw_keys)),
     masks as (
       select k.month,
              case when x.lo <= x.hi
                then ((1::bigint << extract(day from x.hi)::int) - (1::bigint << (extract(day from x.lo)::int - 1)))::int
                else 0 end as mask,
              -- before bit i is the day month - 1 - i
              case when y.lo <= y.hi then (1::bigint << (y.hi + 1)) - (1::bigint << y.lo) else 0 end as before_mask
         from (select distinct month from raw_keys) k, u,
              lateral (select greatest(u.xs, k.month) as lo,
                              least(u.re, (k.month + interval '1 month')::date - 1) as hi) x,
              lateral (select greatest(k.month - 1 - u.re, 0) as lo, least(k.month - 1 - u.xs, 61) as hi) y)
     select (
       -- One primary-key lookup for the first 62 days; then, for each later day d, its visitors not seen in
       -- the 61 days before it: span [d - 61, d] minus span [d - 61, d - 1] (two lookups a day).
       (select coalesce(sum((select r.visitors from visitor_spans r
                              where r.last_day = head.hi and r.first_day = head.lo)), 0) from head)
       + (select coalesce(sum(a.visitors - coalesce(p.visitors, 0)), 0)
            from u cross join generate_series(${EXACT_VISITOR_DAYS}, u.re - u.xs) k
            join visitor_spans a on a.last_day = u.xs + k and a.first_day = u.xs + k - ${LINK_WINDOW_DAYS}
            left join visitor_spans p on p.last_day = u.xs + k - 1 and p.first_day = u.xs + k - ${LINK_WINDOW_DAYS})
       + (select coalesce(sum(unique_visitors), 0) from daily_totals, b where day between b.s and b.pe)
       + (select count(*) from raw_keys k join masks using (month)
           where not exists (select 1 from raw_linked l where l.month = k.month and l.visitor_key = k.visitor_key)
             -- A scalar subquery per key (a primary-key lookup; these are the last few minutes' keys): as
             -- an anti-join, the planner would hash the whole of visitor_days. None when no rolled-up day of
             -- the range could hold the key (a day's raw rows compared on their own: "Hoje" against
             -- yesterday until the same time).
             and case when masks.mask = 0 and masks.before_mask = 0 then true else not coalesce((
               select d.days & masks.mask <> 0 or d.before & masks.before_mask <> 0 from visitor_days d
                where d.month = k.month and d.visitor_key = k.visitor_key), false) end)
     )::int as "uniqueVisitors",
     ((select coalesce(sum(visits), 0) from daily_totals, b where ${ROLLED})
       + (select count(*) from visits, b where ${RAW("occurred_at")}))::int as visits,
     (select u.re - u.xs >= ${EXACT_VISITOR_DAYS} or (b.pe >= b.s and b.e > b.s) from u, b) as approximate`,
    [range.start, range.end, tz, until],
  );
  return rows[0];
}

export interface EventTotals {
  clicks: number;
  /** Forms submitted: the stored leads (a conversion is recorded only for a stored lead of its session). */
  conversions: number;
  leads: number;
}

// Conversions are counted as the stored leads themselves, everywhere (the headline, per UTM source, per
// channel, the chart): the browser's conversion report is stored only for a stored lead of its session, so
// counting the reports could only miss leads whose report was lost, or date one on another day than its lead.
// The raw conversion reports and their roll-ups stay as they are, but no figure reads them.

/**
 * Clicks and leads (conversions) of a period in one round trip; with `until` (a local time of day, HH:mm:ss),
 * only those of the last day before that time.
 */
export async function eventTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null = null,
): Promise<EventTotals> {
  const rows = await db.query<{ clicks: number; leads: number }>(
    `with ${splitWith("$4")},
     r as (select coalesce(sum(clicks), 0) as c from daily_totals, b where ${ROLLED})
     select
       ((select count(*) from clicks, b where ${RAW("occurred_at")} and kind = 'plan') + r.c)::int as clicks,
       (select count(*) from leads, b
         where submitted_at >= ($1::date::timestamp at time zone $3) and submitted_at < b.raw_to)::int as leads
     from r`,
    [range.start, range.end, tz, until],
  );
  return { clicks: rows[0].clicks, conversions: rows[0].leads, leads: rows[0].leads };
}

/** Clicks and conversions (stored leads) of all time (the stats call without dates). */
export async function allTimeClicksAndConversions(
  db: Queryable,
  tz: string,
): Promise<{ clicks: number; conversions: number }> {
  const rows = await db.query<{ clicks: number; conversions: number }>(
    `with b as (
       select coalesce(r.until, (coalesce(r.through, '-infinity'::date) + 1)::timestamp at time zone $1) as raw_from
         from (select 1) one left join rollup_state r on true)
     select ((select count(*) from clicks, b where occurred_at >= b.raw_from and kind = 'plan')
               + (select coalesce(sum(clicks), 0) from daily_totals))::int as clicks,
            (select count(*) from leads)::int as conversions`,
    [tz],
  );
  return rows[0];
}

export interface RankItem {
  key: string;
  visits: number;
}

// Ties are broken by the key so the order is stable from one request to the next. `rolledKey` maps a
// roll-up key (`key`) the way `column` maps a raw row.
const RANKING = (column: string, dimension: string, rolledKey = "key") =>
  `with ${SPLIT}
   select key, sum(n)::int as visits from (
     select ${column} as key, count(*) as n from visits, b
      where ${RAW("occurred_at")} and ${column} is not null and ${column} <> '' group by 1
     union all
     select ${rolledKey}, visits from daily_visit_ranks, b where ${ROLLED} and dimension = '${dimension}'
   ) t group by key order by visits desc, key asc limit $4`;

// The top $4 keys of the days from $5 to $2, each with its visits on the days from $1 to $6 (the comparison
// range, which ends before $5): one pass over the days from $1 to $2.
const RANKING_WITH_PREVIOUS = (column: string, dimension: string) =>
  `with ${SPLIT}
   select key, (sum(n) filter (where d >= $5::date))::int as visits,
          coalesce(sum(n) filter (where d <= $6::date), 0)::int as "previousVisits" from (
     select ${column} as key, (occurred_at at time zone $3)::date as d, count(*) as n from visits, b
      where ${RAW("occurred_at")} and ${column} is not null and ${column} <> '' group by 1, 2
     union all
     select key, day, visits from daily_visit_ranks, b where ${ROLLED} and dimension = '${dimension}'
   ) t group by key having sum(n) filter (where d >= $5::date) > 0
   order by visits desc, key asc limit $4`;

/** The added rankings (migrations/00011; docs/ANALYTICS.md, _Filters_): raw column and roll-up dimension. */
const RANKED = {
  source: ["traffic_source", "source"],
  channel: ["channel", "channel"],
  entry_page: [ENTRY_PAGE, "entry_page"],
} as const;
export type Ranked = keyof typeof RANKED;

/** Most visited traffic sources (UTM or referrer), channels, or landing pages (entries) in the range. */
export async function topRanked(
  db: Queryable,
  ranked: Ranked,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  const [column, dimension] = RANKED[ranked];
  return await db.query<RankItem>(RANKING(column, dimension), [range.start, range.end, tz, limit]);
}

export interface RankItemWithPrevious extends RankItem {
  previousVisits: number;
}

/** The top items of a ranking in the range, each with its visits in `previous` (days before the range). */
export async function topRankedWithPrevious(
  db: Queryable,
  ranked: Ranked,
  range: DayRange,
  previous: DayRange,
  tz: string,
  limit: number,
): Promise<RankItemWithPrevious[]> {
  const [column, dimension] = RANKED[ranked];
  return await db.query<RankItemWithPrevious>(RANKING_WITH_PREVIOUS(column, dimension), [
    previous.start,
    range.end,
    tz,
    limit,
    range.start,
    previous.end,
  ]);
}

export interface ChannelActions {
  channel: string;
  clicks: number;
}

/** Plan clicks per channel in the range (clicks without a channel are left out). */
export async function channelActions(db: Queryable, range: DayRange, tz: string): Promise<ChannelActions[]> {
  return await db.query<ChannelActions>(
    `with ${SPLIT}
     select channel, sum(c)::int as clicks from (
       select channel, count(*) as c from clicks, b
        where ${RAW("occurred_at")} and channel is not null and kind = 'plan' group by 1
       union all
       select channel, clicks from daily_channel_actions, b where ${ROLLED}
     ) t group by channel having sum(c) > 0`,
    [range.start, range.end, tz],
  );
}

/** Leads per last-touch channel in the range (leads stored before migration 00011 have none: left out). */
export async function leadsByChannel(
  db: Queryable,
  range: DayRange,
  tz: string,
): Promise<{ channel: string; leads: number }[]> {
  return await db.query(
    `select last_channel as channel, count(*)::int as leads from leads
      where ${BOUNDS("submitted_at")} and last_channel is not null group by 1`,
    [range.start, range.end, tz],
  );
}

/** Most visited UTM sources in the range. */
export async function topUtmSources(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("utm_source", "utm_source"), [range.start, range.end, tz, limit]);
}

/** Most visited UTM campaigns in the range. */
export async function topUtmCampaigns(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("utm_campaign", "utm_campaign"), [
    range.start,
    range.end,
    tz,
    limit,
  ]);
}

/**
 * Most visited pages in the range: their page keys (path plus query without click ids, src/shared/page_key.ts),
 * or with `byPath` their paths alone.
 */
export async function topPages(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
  byPath = false,
): Promise<RankItem[]> {
  const sql = byPath
    ? RANKING("split_part(source, '?', 1)", "page", "split_part(key, '?', 1)")
    : RANKING("source", "page");
  return await db.query<RankItem>(sql, [range.start, range.end, tz, limit]);
}

/** One page of a full ranking: rows `offset` to `offset + limit`, of the keys containing `search` (any case). */
export interface RankPage {
  limit: number;
  offset: number;
  search?: string;
}

/** The rankings a page of can be read (RANKED's, the UTM ones and pages by key or by path). */
export type PagedRanking = Ranked | "utm_source" | "utm_campaign" | "page" | "page_path";

const PAGED: Record<Exclude<PagedRanking, Ranked>, [string, string, string?]> = {
  utm_source: ["utm_source", "utm_source"],
  utm_campaign: ["utm_campaign", "utm_campaign"],
  page: ["source", "page"],
  page_path: ["split_part(source, '?', 1)", "page", "split_part(key, '?', 1)"],
};

/**
 * One page of a whole ranking in the range (with `previous`, each key's visits in those days too, as
 * topRankedWithPrevious), and how many keys match in all: the ranking's own statement with no limit
 * (`limit null`), narrowed and paged around it, so the order and counts are the top 10's.
 */
export async function rankingPage(
  db: Queryable,
  ranking: PagedRanking,
  range: DayRange,
  tz: string,
  page: RankPage,
  previous?: DayRange,
): Promise<{ items: (RankItem & { previousVisits?: number })[]; total: number }> {
  let sql: string;
  let params: unknown[];
  if (previous && ranking in RANKED) {
    const [column, dimension] = RANKED[ranking as Ranked];
    sql = RANKING_WITH_PREVIOUS(column, dimension);
    params = [previous.start, range.end, tz, null, range.start, previous.end];
  } else {
    const [column, dimension, rolledKey] = ranking in RANKED
      ? RANKED[ranking as Ranked]
      : PAGED[ranking as Exclude<PagedRanking, Ranked>];
    sql = RANKING(column, dimension, rolledKey);
    params = [range.start, range.end, tz, null];
  }
  const n = params.length;
  const paged = (limit: number, offset: number) =>
    db.query<RankItem & { previousVisits?: number; total: number }>(
      `select *, count(*) over ()::int as total from (${sql}) r
        where $${n + 1}::text is null or strpos(lower(key), lower($${n + 1}::text)) > 0
        order by visits desc, key asc limit $${n + 2} offset $${n + 3}`,
      [...params, page.search || null, limit, offset],
    );
  let rows = await paged(page.limit, page.offset);
  // A page past the last still says how many there are.
  const total = rows.length > 0 ? rows[0].total : page.offset > 0 ? ((await paged(1, 0))[0]?.total ?? 0) : 0;
  rows = rows.map(({ total: _, ...r }) => r as typeof rows[number]);
  return { items: rows, total };
}

export interface SourceConversion {
  utmSource: string | null;
  clicks: number;
  /** Stored leads with this UTM source (the table labels them "Leads"). */
  conversions: number;
}

/** Clicks and conversions (stored leads) per UTM source in the range (null: no UTM source). */
export async function conversionBySource(
  db: Queryable,
  range: DayRange,
  tz: string,
): Promise<SourceConversion[]> {
  return await db.query<SourceConversion>(
    `with ${SPLIT}
     select s as "utmSource", sum(c)::int as clicks, sum(v)::int as conversions from (
       select nullif(utm_source, '') as s, count(*) as c, 0 as v from clicks, b
        where ${RAW("occurred_at")} and kind = 'plan' group by 1
       union all
       select nullif(utm_source, ''), clicks, 0 from daily_source_actions, b where ${ROLLED} and clicks > 0
       union all
       select nullif(utm_source, '') as s, 0 as c, count(*) as v from leads where ${BOUNDS("submitted_at")}
        group by 1
     ) t group by s
      order by clicks desc, conversions desc, "utmSource" asc nulls last`,
    [range.start, range.end, tz],
  );
}
