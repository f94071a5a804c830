// Roll-ups (migrations/00006_closed_day_rollups.sql). Days are yyyy-MM-dd in the analytics time zone; a
// run covers the raw events from the local midnight of `from` (the first day not final yet) to `until`,
// and rewrites the roll-up rows of those days.
import { LINK_WINDOW_DAYS } from "../shared/dashboard_math.ts";
import type { Queryable } from "./client.ts";
import { EVENT_TABLES } from "./event_columns.ts";

/** How far the roll-ups go: null when nothing is rolled up / purged yet. */
export interface RollupState {
  /** The last local day with roll-up rows (the day of `until`). */
  through: string | null;
  /** Events before this instant are rolled up; null after 00005 alone: the local midnight after `through`. */
  until: Date | null;
  purgedThrough: string | null;
}

const DAY_TEXT = (column: string) =>
  `case when isfinite(${column}) then to_char(${column}, 'YYYY-MM-DD') end`;

/** The roll-up watermark and the purge watermark. */
export async function rollupState(db: Queryable): Promise<RollupState> {
  const rows = await db.query<RollupState>(
    `select ${DAY_TEXT("through")} as through, until, ${DAY_TEXT("purged_through")} as "purgedThrough"
       from rollup_state`,
  );
  const row = rows[0];
  return row
    ? { ...row, until: row.until === null ? null : new Date(row.until) }
    : { through: null, until: null, purgedThrough: null };
}

/** Gives the current transaction room to sort and hash a backlog of days in memory. */
export async function roomForRollups(tx: Queryable): Promise<void> {
  await tx.query("select set_config('work_mem', '64MB', true)");
}

/** Moves the roll-up watermark to `until`, whose local day is `through`. */
export async function setRolledUntil(db: Queryable, through: string, until: Date): Promise<void> {
  await db.query(
    `insert into rollup_state (through, until, purged_through) values ($1::date, $2, '-infinity')
     on conflict (id) do update set through = excluded.through, until = excluded.until`,
    [through, until],
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
    `select to_char((least(${
      EVENT_TABLES.map((t) => `(select min(occurred_at) from ${t})`).join(", ")
    }) at time zone $1)::date, 'YYYY-MM-DD') as day`,
    [tz],
  );
  return rows[0].day;
}

// $1 first day, $2 the instant the span ends (exclusive), $3 time zone.
const SPAN = "occurred_at >= ($1::date::timestamp at time zone $3) and occurred_at < $2";
const LOCAL_DAY = "(occurred_at at time zone $3)::date";

/**
 * A visit's landing page for the "Páginas de entrada" ranking (null unless it started its session): its path
 * without the query string, whose campaign parameters would split one page into many.
 */
export const ENTRY_PAGE = "case when entry then split_part(source, '?', 1) end";

/**
 * Rewrites daily_totals from `from` on with the events from from's local midnight to `until`; returns how
 * many days have events.
 */
export async function rollUpTotals(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  await db.query("delete from daily_totals where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_totals (day, visits, unique_visitors, clicks, conversions, whatsapp_clicks)
       select day, sum(v)::int, sum(u)::int, sum(c)::int, sum(k)::int, sum(w)::int from (
         select ${LOCAL_DAY} as day, count(*) as v, count(distinct visitor_key) as u, 0 as c, 0 as k, 0 as w
           from visits where ${SPAN} group by 1
         union all
         select ${LOCAL_DAY}, 0, 0, count(*) filter (where kind = 'plan'), 0, count(*) filter (where kind = 'whatsapp')
           from clicks where ${SPAN} group by 1
         union all
         select ${LOCAL_DAY}, 0, 0, 0, count(*), 0 from conversions where ${SPAN} group by 1
       ) t group by day
       on conflict (day) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * Rewrites daily_visit_ranks from `from` on, up to `until`: visits per UTM source, UTM campaign, page, traffic
 * source and channel, and entries per landing page (migrations/00011); WhatsApp clicks per page (00017).
 */
export async function rollUpVisitRanks(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_visit_ranks where day >= $1::date", [from]);
  // One pass over the raw rows for the three dimensions.
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_visit_ranks (day, dimension, key, visits)
       select day, dimension, key, sum(n)::int from (
         select ${LOCAL_DAY} as day, utm_source, utm_campaign, source, traffic_source, channel, entry, count(*) as n
           from visits where ${SPAN} group by 1, 2, 3, 4, 5, 6, 7) t,
         lateral (values ('utm_source', utm_source), ('utm_campaign', utm_campaign), ('page', source),
                         ('source', traffic_source), ('channel', channel),
                         ('entry_page', ${ENTRY_PAGE}))
           as d(dimension, key)
        where key is not null and key <> ''
        group by day, dimension, key
       union all
       -- WhatsApp clicks per page (migrations/00017): \`visits\` holds clicks under this dimension.
       select ${LOCAL_DAY}, 'whatsapp_page', source, count(*)::int from clicks
        where ${SPAN} and kind = 'whatsapp' and source <> '' group by 1, 3
       on conflict (day, dimension, key) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * Rewrites daily_source_actions (plan clicks, conversions and WhatsApp clicks per UTM source, '' for none) from
 * `from` on.
 */
export async function rollUpSourceActions(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_source_actions where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_source_actions (day, utm_source, clicks, conversions, whatsapp_clicks)
       select day, s, sum(c)::int, sum(k)::int, sum(w)::int from (
         select ${LOCAL_DAY} as day, coalesce(utm_source, '') as s, (kind = 'plan')::int as c, 0 as k,
                (kind = 'whatsapp')::int as w
           from clicks where ${SPAN}
         union all
         select ${LOCAL_DAY}, coalesce(utm_source, ''), 0, 1, 0 from conversions where ${SPAN}
       ) t group by day, s
       on conflict (day, utm_source) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * Rewrites daily_channel_actions (plan clicks, conversions and WhatsApp clicks per channel; events without one are
 * left out).
 */
export async function rollUpChannelActions(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_channel_actions where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_channel_actions (day, channel, clicks, conversions, whatsapp_clicks)
       select day, channel, sum(c)::int, sum(k)::int, sum(w)::int from (
         select ${LOCAL_DAY} as day, channel, (kind = 'plan')::int as c, 0 as k, (kind = 'whatsapp')::int as w
           from clicks where ${SPAN} and channel is not null
         union all
         select ${LOCAL_DAY}, channel, 0, 1, 0 from conversions where ${SPAN} and channel is not null
       ) t group by day, channel
       on conflict (day, channel) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * Adds the visitor keys seen from from's local midnight to `until` to visitor_days, and rewrites
 * visitor_spans for every range of up to 62 days ending on one of those days (`from` is the first day not
 * final yet). An address counts in [a, d] through its first visit on or after day a: the visit v whose
 * previous visit p by the same address (none: -infinity) is before a. The same address has one key per
 * month; a visit's link keys are its keys for the next months (migrations/00009), so its previous visit is
 * the latest of: its earlier visits in the span under the same key (own or as a link key), and, from
 * before the span, the highest bit of its month's `days` and the lowest of its `before` bitmap. A histogram
 * of (p, v) plus the ranges ending the day before the span gives every range of the span in one statement.
 * Rerunning it is harmless: the bits are or-ed, and p before the span comes from the bits of earlier days.
 */
export async function rollUpVisitors(db: Queryable, from: string, until: Date, tz: string): Promise<void> {
  await db.query("delete from visitor_spans where last_day >= $1::date", [from]);
  await db.query(
    `with raw as (
       select (occurred_at at time zone $3)::date as v, date_trunc('month', occurred_at at time zone $3)::date as month,
              visitor_key, link_keys
         from visits where ${SPAN}),
     own as (select distinct month, visitor_key, v from raw),
     linked as (
       select distinct (r.month + make_interval(months => l.i::int))::date as month, l.key as visitor_key, r.v
         from (select distinct month, v, link_keys from raw where link_keys is not null) r,
              unnest(r.link_keys) with ordinality as l(key, i)),
     up as (
       insert into visitor_days (month, visitor_key, days, last_day, before)
       select month, visitor_key,
              coalesce(bit_or(1 << (extract(day from v)::int - 1)) filter (where v >= month), 0),
              coalesce(max(extract(day from v)::int) filter (where v >= month), 0),
              coalesce(bit_or(1::bigint << (month - 1 - v)) filter (where v < month), 0)
         from (select * from own union all select * from linked) p
        group by month, visitor_key
       on conflict (month, visitor_key) do update
         set days = visitor_days.days | excluded.days, last_day = greatest(visitor_days.last_day, excluded.last_day),
             before = visitor_days.before | excluded.before),
     ordered as (
       select month, visitor_key, v, is_own, lag(v) over (partition by month, visitor_key order by v) as prev
         from (select month, visitor_key, v, true as is_own from own
               union all select month, visitor_key, v, false from linked) p),
     seq as (
       -- visitor_days as before this statement (one snapshot); of it, only days before the span count.
       select o.v, greatest(o.prev, o.month - 1 + x.own_bit, o.month - 1 - x.shift - x.low_bit) as p
         from ordered o left join visitor_days d on d.month = o.month and d.visitor_key = o.visitor_key,
              lateral (select greatest(o.month - $1::date, 0) as shift) s,
              lateral (select
                nullif(length(ltrim((coalesce(d.days, 0) & ((1 << (extract(day from greatest($1::date, o.month))::int - 1)) - 1))
                  ::bit(32)::text, '0')), 0) as own_bit,
                s.shift,
                nullif(64 - length(rtrim((case when s.shift >= 62 then 0 else coalesce(d.before, 0) >> s.shift end)
                  ::bit(64)::text, '0')), 64) as low_bit) x
        where o.is_own),
     h as (select coalesce(p, '-infinity'::date) as p, v, count(*) as n from seq group by 1, 2),
     -- g(a, v): visits on day v that are their address's first on or after a, for a in [v - 61, v].
     g as (
       select h.v - k as a, h.v, sum(h.n) as n
         from h, generate_series(0, ${LINK_WINDOW_DAYS}) k
        where h.v - k > h.p group by 1, 2),
     grid as (
       select d::date as d, (d::date - k) as a
         from generate_series($1::date::timestamp, ($2::timestamptz at time zone $3)::date::timestamp, interval '1 day') d,
              generate_series(0, ${LINK_WINDOW_DAYS}) k)
     insert into visitor_spans (last_day, first_day, visitors)
     select grid.d, grid.a, (coalesce(o.visitors, 0) + coalesce(sum(g.n), 0))::int
       from grid
       left join visitor_spans o on o.last_day = $1::date - 1 and o.first_day = grid.a
       left join g on g.a = grid.a and g.v <= grid.d
      group by grid.d, grid.a, o.visitors`,
    [from, until, tz],
  );
}

/**
 * Clears the visitor bits of the days before `day` (retention purges their raw rows) and the visitor spans
 * that start before it; returns visitor_days rows dropped.
 */
export async function forgetVisitorDaysBefore(db: Queryable, day: string): Promise<number> {
  await db.query(
    `update visitor_days set days = days & ~((1::bigint << (extract(day from $1::date)::int - 1)) - 1)::int
      where month = date_trunc('month', $1::date::timestamp)::date`,
    [day],
  );
  // `before` bit i is the day month - 1 - i: keep i <= month - 1 - day.
  await db.query(
    `update visitor_days set before = before & ((1::bigint << greatest(least(month - $1::date, 62), 0)) - 1)
      where before <> 0 and month - 62 < $1::date`,
    [day],
  );
  await db.query("delete from visitor_spans where first_day < $1::date", [day]);
  const rows = await db.query<{ n: number }>(
    `with d as (delete from visitor_days
                 where month < date_trunc('month', $1::date::timestamp)::date or (days = 0 and before = 0)
                 returning 1)
     select count(*)::int as n from d`,
    [day],
  );
  return rows[0].n;
}
