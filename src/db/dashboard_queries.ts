// Dashboard aggregations. Days are calendar days in the analytics time zone: a range [start, end] is the
// half-open interval from start's local midnight to the local midnight after end, so the timestamp indexes
// are used; grouping converts each instant to its local date.
//
// Events up to a couple of minutes ago are rolled up (migrations/00006_closed_day_rollups.sql): every query
// splits its range at the roll-up watermark inside its own statement (one snapshot), reading what is before
// it from the roll-ups and what is after it from the raw rows, so no event is counted twice or missed. Unique
// visitors are exact over up to 62 days that still have raw rows (00009); over purged days they are the sum of
// the daily uniques (00005).
import { type DailyCount, type DayRange } from "../shared/dashboard_math.ts";
import type { Queryable } from "./client.ts";
import { LEAD_COUNT, LEAD_SPLIT, LEADS_RAW, LEADS_ROLLED } from "./lead_totals.ts";

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
// The roll-up rows of the range up to the watermark whose days still have raw rows: what a filtered reading
// takes from a roll-up per filter value (the raw path counts nothing for purged days).
export const ROLLED_KEPT = "day between greatest(b.s, b.xs) and b.re";
export const ROLLUP_DAY = "to_char(day, 'YYYY-MM-DD')";

/** Leads per local day in the range (days without leads are absent). */
export async function dailyLeads(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  return await db.query<DailyCount>(
    `with ${SPLIT}, ${LEAD_SPLIT}
     select to_char(day, 'YYYY-MM-DD') as date, sum(n)::int as count from (
       select day, leads as n from daily_lead_totals, lb where ${LEADS_ROLLED}
       union all
       select (submitted_at at time zone $3)::date, 1 from leads, lb where ${LEADS_RAW}
     ) t group by day having sum(n) > 0 order by day`,
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
    `with ${splitWith("$4")}, ${LEAD_SPLIT},
     r as (select coalesce(sum(clicks), 0) as c from daily_totals, b where ${ROLLED})
     select
       ((select count(*) from clicks, b where ${RAW("occurred_at")} and kind = 'plan') + r.c)::int as clicks,
       ${LEAD_COUNT}::int as leads
     from r`,
    [range.start, range.end, tz, until],
  );
  return { clicks: rows[0].clicks, conversions: rows[0].leads, leads: rows[0].leads };
}

/** The leads of a period: the leads' roll-up up to the watermark, the leads table after it (db/lead_totals.ts). */
export async function leadCount(db: Queryable, range: DayRange, tz: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with ${SPLIT}, ${LEAD_SPLIT}
     select ${LEAD_COUNT}::int as n`,
    [range.start, range.end, tz],
  );
  return rows[0].n;
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
    `with ${SPLIT}, ${LEAD_SPLIT}
     select channel, sum(n)::int as leads from (
       select last_channel as channel, leads as n from daily_lead_totals, lb
        where ${LEADS_ROLLED} and last_channel <> ''
       union all
       select last_channel, 1 from leads, lb where ${LEADS_RAW} and last_channel is not null
     ) t group by channel`,
    [range.start, range.end, tz],
  );
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
    `with ${SPLIT}, ${LEAD_SPLIT}
     select s as "utmSource", sum(c)::int as clicks, sum(v)::int as conversions from (
       select nullif(utm_source, '') as s, count(*) as c, 0 as v from clicks, b
        where ${RAW("occurred_at")} and kind = 'plan' group by 1
       union all
       select nullif(utm_source, ''), clicks, 0 from daily_source_actions, b where ${ROLLED} and clicks > 0
       union all
       select nullif(utm_source, ''), 0, leads from daily_lead_totals, lb where ${LEADS_ROLLED}
       union all
       select nullif(utm_source, ''), 0, 1 from leads, lb where ${LEADS_RAW}
     ) t group by s
      order by clicks desc, conversions desc, "utmSource" asc nulls last`,
    [range.start, range.end, tz],
  );
}
