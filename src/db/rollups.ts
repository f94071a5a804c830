// Roll-ups of closed local days (migrations/00006_closed_day_rollups.sql). Days are yyyy-MM-dd in the
// analytics time zone; a span [from, to] covers the raw events from from's local midnight to the local
// midnight after `to`.
import type { Queryable } from "./client.ts";

/** How far the roll-ups go: null when no day is rolled up / purged yet. */
export interface RollupState {
  through: string | null;
  purgedThrough: string | null;
}

const DAY_TEXT = (column: string) =>
  `case when isfinite(${column}) then to_char(${column}, 'YYYY-MM-DD') end`;

/** The roll-up watermark and the purge watermark. */
export async function rollupState(db: Queryable): Promise<RollupState> {
  const rows = await db.query<RollupState>(
    `select ${DAY_TEXT("through")} as through, ${DAY_TEXT("purged_through")} as "purgedThrough"
       from rollup_state`,
  );
  return rows[0] ?? { through: null, purgedThrough: null };
}

/** Moves the roll-up watermark to `day` (never backwards). */
export async function setRollupThrough(db: Queryable, day: string): Promise<void> {
  await db.query(
    `insert into rollup_state (through, purged_through) values ($1::date, '-infinity')
     on conflict (id) do update set through = greatest(rollup_state.through, excluded.through)`,
    [day],
  );
}

/** Moves the purge watermark to `day` (never backwards). */
export async function setPurgedThrough(db: Queryable, day: string): Promise<void> {
  await db.query(
    `insert into rollup_state (through, purged_through) values ('-infinity', $1::date)
     on conflict (id) do update set purged_through = greatest(rollup_state.purged_through, excluded.purged_through)`,
    [day],
  );
}

/** The earliest local day with a raw visit, click or conversion; null when there is none. */
export async function earliestRawDay(db: Queryable, tz: string): Promise<string | null> {
  const rows = await db.query<{ day: string | null }>(
    `select to_char((least(
        (select min(occurred_at) from visits),
        (select min(occurred_at) from clicks),
        (select min(occurred_at) from conversions)) at time zone $1)::date, 'YYYY-MM-DD') as day`,
    [tz],
  );
  return rows[0].day;
}

// $1 first day, $2 last day, $3 time zone.
const SPAN =
  "occurred_at >= ($1::date::timestamp at time zone $3) and occurred_at < (($2::date + 1)::timestamp at time zone $3)";
const LOCAL_DAY = "(occurred_at at time zone $3)::date";

/** Writes daily_totals for the days of [from, to] that have events; returns how many days. */
export async function rollUpTotals(db: Queryable, from: string, to: string, tz: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_totals (day, visits, unique_visitors, clicks, conversions)
       select day, sum(v)::int, sum(u)::int, sum(c)::int, sum(k)::int from (
         select ${LOCAL_DAY} as day, count(*) as v, count(distinct visitor_key) as u, 0 as c, 0 as k
           from visits where ${SPAN} group by 1
         union all
         select ${LOCAL_DAY}, 0, 0, count(*), 0 from clicks where ${SPAN} group by 1
         union all
         select ${LOCAL_DAY}, 0, 0, 0, count(*) from conversions where ${SPAN} group by 1
       ) t group by day
       on conflict (day) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, to, tz],
  );
  return rows[0].n;
}

/** Writes daily_visit_ranks (visits per UTM source, UTM campaign and page) for the days of [from, to]. */
export async function rollUpVisitRanks(db: Queryable, from: string, to: string, tz: string): Promise<number> {
  const dimension = (name: string, column: string) =>
    `select ${LOCAL_DAY} as day, '${name}' as dimension, ${column} as key, count(*)::int as visits
       from visits where ${SPAN} and ${column} is not null and ${column} <> '' group by 1, 3`;
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_visit_ranks (day, dimension, key, visits)
       ${dimension("utm_source", "utm_source")}
       union all ${dimension("utm_campaign", "utm_campaign")}
       union all ${dimension("page", "source")}
       on conflict (day, dimension, key) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, to, tz],
  );
  return rows[0].n;
}

/** Writes daily_source_actions (clicks and conversions per UTM source, '' for none) for [from, to]. */
export async function rollUpSourceActions(
  db: Queryable,
  from: string,
  to: string,
  tz: string,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_source_actions (day, utm_source, clicks, conversions)
       select day, s, sum(c)::int, sum(k)::int from (
         select ${LOCAL_DAY} as day, coalesce(utm_source, '') as s, 1 as c, 0 as k from clicks where ${SPAN}
         union all
         select ${LOCAL_DAY}, coalesce(utm_source, ''), 0, 1 from conversions where ${SPAN}
       ) t group by day, s
       on conflict (day, utm_source) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, to, tz],
  );
  return rows[0].n;
}

/**
 * Adds one day's visitor keys to visitor_days, then writes visitor_ranges for every range of that month
 * ending on the day. Days of a month must be rolled up in order (the histogram of last_day only holds days
 * up to this one). Returns the day's distinct keys.
 */
export async function rollUpVisitorDay(db: Queryable, day: string, tz: string): Promise<number> {
  const keys = await db.query<{ n: number }>(
    `with ins as (
       insert into visitor_days (month, visitor_key, days, last_day)
       select date_trunc('month', $1::date::timestamp)::date, visitor_key,
              1 << (extract(day from $1::date)::int - 1), extract(day from $1::date)::int
         from visits
        where occurred_at >= ($1::date::timestamp at time zone $2)
          and occurred_at < (($1::date + 1)::timestamp at time zone $2)
        group by visitor_key
       on conflict (month, visitor_key) do update
         set days = visitor_days.days | excluded.days, last_day = greatest(visitor_days.last_day, excluded.last_day)
       returning 1)
     select count(*)::int as n from ins`,
    [day, tz],
  );
  await db.query(
    `with m as (select date_trunc('month', $1::date::timestamp)::date as month,
                       extract(day from $1::date)::int as dom),
          h as (select last_day, count(*) as n from visitor_days, m where visitor_days.month = m.month
                 group by last_day)
     insert into visitor_ranges (month, first_day, last_day, visitors)
     select m.month, a, m.dom, coalesce(sum(h.n), 0)::int
       from m cross join generate_series(1, m.dom) a left join h on h.last_day >= a
      group by m.month, a, m.dom
     on conflict do nothing`,
    [day],
  );
  return keys[0].n;
}

/** Clears the visitor bits of the days before `day` (retention purges their raw rows); returns rows dropped. */
export async function forgetVisitorDaysBefore(db: Queryable, day: string): Promise<number> {
  await db.query(
    `update visitor_days set days = days & ~((1::bigint << (extract(day from $1::date)::int - 1)) - 1)::int
      where month = date_trunc('month', $1::date::timestamp)::date`,
    [day],
  );
  const rows = await db.query<{ n: number }>(
    `with d as (delete from visitor_days
                 where month < date_trunc('month', $1::date::timestamp)::date or days = 0 returning 1)
     select count(*)::int as n from d`,
    [day],
  );
  return rows[0].n;
}
