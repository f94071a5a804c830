// Unique visitors under one filter (or two: db/filter_dimensions.ts) from a roll-up (migrations/00026,
// docs/ANALYTICS.md "Filters"). The raw path (db/filtered.ts filteredVisitorTotals) reads every page view of the
// period to count the distinct (month, visitor key) pairs of the selected ones: about half a second at a million
// visits. Here every (month, key) has a number (visitor_days.id), and per filter value and final day the roll-up
// keeps the numbers of the keys whose page views had the value that day, as one sorted array. A period's figure is
// the distinct numbers of its final days, together with the raw page views from the watermark's day on (each
// mapped to its number, or counted by key when the roll-up has not seen it yet): the same pairs the raw path
// counts.
import type { Queryable } from "./client.ts";
import { backfillPending, LOCAL_DAY, SPAN } from "./rollups.ts";
import { type DayRange, RAW, ROLLED_KEPT, splitWith } from "./dashboard_queries.ts";
import { filteredVisitorTotals } from "./filtered.ts";
import { ROLLED_FILTERS, rolledFilter } from "./filter_engagement.ts";
import { dimensionValues } from "./filter_dimensions.ts";
import type { Filters } from "../shared/filters.ts";

const MONTH = (tz: string) => `date_trunc('month', occurred_at at time zone ${tz})::date`;

/**
 * Rewrites daily_filter_visitors from `from` on with the page views from from's local midnight to `until`.
 * Runs after rollUpVisitors in the same transaction, which gives each of those keys its visitor_days row.
 */
export async function rollUpFilterVisitors(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_filter_visitors where day >= $1::date", [from]);
  const dims = dimensionValues(ROLLED_FILTERS);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_filter_visitors (filter, value, day, visitors)
       select d.filter, d.value, t.day, array_agg(distinct vd.id order by vd.id)
         from (select distinct ${LOCAL_DAY} as day, ${MONTH("$3")} as month, visitor_key,
                      ${[...new Set(Object.values(ROLLED_FILTERS))].join(", ")}
                 from visits where ${SPAN}) t
         join visitor_days vd on vd.month = t.month and vd.visitor_key = t.visitor_key,
         lateral (values ${dims}) as d(filter, value)
        where d.value is not null and d.value <> ''
        group by 1, 2, 3
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  await fillMonthToDate(db, until, tz);
  return rows[0].n;
}

/**
 * month_to_date (migrations/00030) of the final days' rows of one month from day $2 on ($1 the month, $3 the run's
 * end, $4 the time zone; the open day, from $3's local day on, is never filled: its array still grows): the
 * running sum of the numbers each day sees first in the month. `incremental`: the month's rows before $2 are
 * filled, so only the numbers they do not have are new (the usual case, the day that just ended: about 3 s for a
 * month of a million visits, most of it reading the month's earlier numbers). Otherwise $2 is the month's first day
 * and the whole month is counted (after the migration, or a run that rewrote earlier days: about 9 s). Two forms,
 * not one: the incremental form over a whole month (nothing earlier to subtract) took 23 s, its `except` hashing
 * every number of the month for nothing.
 */
const FILL_MONTH_TO_DATE = (incremental: boolean) =>
  `with pending as (
     select filter, value, day, visitors from daily_filter_visitors
      where day >= $2::date and day < ($1::date + interval '1 month')::date and day < ($3::timestamptz at time zone $4)::date),
   firsts as (select filter, value, id, min(day) as day from pending, unnest(visitors) as id group by 1, 2, 3),${
    incremental
      ? `
   unseen as (
     select filter, value, id from firsts
     except
     select d.filter, d.value, id from daily_filter_visitors d, unnest(d.visitors) as id
      where d.day >= $1::date and d.day < $2::date),
   earlier as (
     select distinct on (filter, value) filter, value, month_to_date from daily_filter_visitors
      where day >= $1::date and day < $2::date order by filter, value, day desc),`
      : ""
  }
   news as (
     select filter, value, day, count(*) as n from firsts${
    incremental ? " join unseen using (filter, value, id)" : ""
  }
      group by 1, 2, 3),
   totals as (
     select p.filter, p.value, p.day,
            (${incremental ? "coalesce(e.month_to_date, 0) + " : ""}sum(coalesce(n.n, 0))
              over (partition by p.filter, p.value order by p.day))::int as n
       from pending p${incremental ? " left join earlier e on e.filter = p.filter and e.value = p.value" : ""}
       left join news n on n.filter = p.filter and n.value = p.value and n.day = p.day)
   update daily_filter_visitors t set month_to_date = totals.n from totals
    where t.filter = totals.filter and t.value = totals.value and t.day = totals.day
      and t.month_to_date is distinct from totals.n`;

/** Fills month_to_date on the final days' rows that lack it, month by month from each one's first such day. */
async function fillMonthToDate(db: Queryable, until: Date, tz: string): Promise<void> {
  const months = await db.query<{ month: string; first: string }>(
    `select to_char(date_trunc('month', day::timestamp), 'YYYY-MM-DD') as month, to_char(min(day), 'YYYY-MM-DD') as first
       from daily_filter_visitors where month_to_date is null and day < ($1::timestamptz at time zone $2)::date
      group by 1`,
    [until, tz],
  );
  for (const { month, first } of months) {
    await db.query(FILL_MONTH_TO_DATE(first !== month), [month, first, until, tz]);
  }
}

type VisitorTotals = { uniqueVisitors: number; visits: number; approximate: boolean };

/**
 * This month so far under one filter value without counting a month of numbers (a month of the home page's
 * visitors at 10,000,000 visits: about 800,000 numbers, 300 ms to sort). The final days before the open day
 * have their month_to_date (`before`: the last such row's; 0 with none; null when not filled, and then the
 * arrays are counted). What it lacks is the numbers of the open day's row and of the raw rows (`latest`) that
 * no earlier day of the month had under the value (`unseen`). A number's visitor_days row says on which days of
 * the month the visitor came at all (`days`, one bit a day); most of the open day's visitors came on no earlier
 * day and are new, and for the others only the days they came are searched, each day's sorted array by binary
 * search (`width_bucket`). The earlier days' arrays are read once (`earlier`, materialized and out of TOAST).
 * Needs b, st0 and numbered; $4 the cut, $5 and $6 the filter and its value.
 */
const OPEN_MONTH = `open_month as (
       select b.re, case when not exists (select 1 from daily_filter_visitors d
                                           where d.filter = $5 and d.value = $6 and d.day >= b.s and d.day < b.re)
                         then 0
                         else (select d.month_to_date from daily_filter_visitors d
                                where d.filter = $5 and d.value = $6 and d.day >= b.s and d.day < b.re
                                order by d.day desc limit 1) end as before
         from b, st0
        where $4::text is null and b.s = date_trunc('month', b.s::timestamp)::date
          and b.e < (date_trunc('month', b.s::timestamp) + interval '1 month')::date
          and b.xs = b.s and b.re = st0.through and b.re > b.s),
     earlier as materialized (
       select d.day, array[]::bigint[] || d.visitors as visitors from daily_filter_visitors d, open_month o, b
        where d.filter = $5 and d.value = $6 and d.day >= b.s and d.day < o.re),
     latest as (
       select unnest(d.visitors) as id from daily_filter_visitors d, open_month o
        where d.filter = $5 and d.value = $6 and d.day = o.re
       union
       select id from numbered where id is not null),
     unseen as (
       select count(*) as n from latest x join visitor_days vd on vd.id = x.id, open_month o
        where vd.days & ((1 << (extract(day from o.re)::int - 1)) - 1) = 0
           or not exists (
             select 1 from earlier e
              where vd.days & (1 << (extract(day from e.day)::int - 1)) <> 0
                and e.visitors[width_bucket(x.id, e.visitors)] = x.id))`;

/**
 * filteredVisitorTotals with one rolled-up filter or pair: the days up to the watermark from the roll-ups (the
 * visitor numbers here, the page views from daily_filter_engagement: a day's numbers and views up to the watermark
 * combine with the raw rows after it, since a number counts once however often it comes and views add up),
 * the raw rows after the watermark; with a cut the roll-ups stop before the cut day once they passed it
 * (db/dashboard_queries.ts splitWith). The same figures. Null when it cannot answer (no such filter, or a
 * backfill still pending).
 */
export async function rolledFilterVisitorTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<VisitorTotals | null> {
  const filter = rolledFilter(f);
  if (!filter) return null;
  if (await backfillPending(db, "filter_visitors_backfill", "filter_engagement_backfill")) return null;
  // $1..$2 the range, $3 the time zone, $4 the cut (local time of the last day) or null, $5 filter, $6 value.
  // Days whose raw rows are purged count nothing, as on the raw path.
  const rows = await db.query<{ uniqueVisitors: number; visits: number }>(
    `with ${splitWith("$4::text")},
     raw as (
       select ${MONTH("$3")} as month, visitor_key from visits, b
        where ${RAW("occurred_at")} and ${filter.sql()} = $6),
     -- Each raw key's number, looked up by its key (a hash join would read all of visitor_days).
     numbered as (
       select month, visitor_key,
              (select vd.id from visitor_days vd where vd.month = raw.month and vd.visitor_key = raw.visitor_key) as id
         from raw),
     -- count(distinct) sorts the numbers: twice as fast as a union's hash over a month of the home page's
     -- 135,000 (50 against 104 ms).
     ids as (
       select unnest(visitors) as id from daily_filter_visitors, b
        where filter = $5 and value = $6 and ${ROLLED_KEPT}
       union all
       select id from numbered where id is not null),
     -- From the first of a month to a final day of it, with no raw rows and no purged day: the last row's
     -- month_to_date (null when not filled yet, then the arrays are counted; no row: no visitor).
     last_row as (
       select month_to_date from daily_filter_visitors, b
        where filter = $5 and value = $6 and day between b.s and b.e order by day desc limit 1),
     month_to_date as (
       select case when (select count(*) from last_row) = 0 then 0 else (select month_to_date from last_row) end as n
         from b
        where b.s = date_trunc('month', b.s::timestamp)::date
          and b.e < (date_trunc('month', b.s::timestamp) + interval '1 month')::date
          and b.raw_from >= b.raw_to and b.re = b.e and b.xs = b.s),
     -- From the first of a month to the open day (no cut, no purged day): the month_to_date of the last final
     -- day before it, plus the numbers of the open day and of the raw rows that no earlier day has (OPEN_MONTH).
     ${OPEN_MONTH},
     unnumbered as (select count(*) as n from (select distinct month, visitor_key from numbered where id is null) k)
     select coalesce((select n from month_to_date),
              (select o.before + u.n from open_month o, unseen u where o.before is not null) +
              (select n from unnumbered),
              (select count(distinct id) from ids) + (select n from unnumbered))::int
              as "uniqueVisitors",
            ((select coalesce(sum(page_views), 0) from daily_filter_engagement, b
               where dimension = $5 and key = $6 and ${ROLLED_KEPT}) +
             (select count(*) from raw))::int as visits`,
    [range.start, range.end, tz, until, filter.name, filter.value],
  );
  return { ...rows[0], approximate: range.start.slice(0, 7) !== range.end.slice(0, 7) };
}

/** filteredVisitorTotals: from the roll-ups when they can answer, else from the raw rows. */
export async function visitorTotalsUnderFilters(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<VisitorTotals> {
  return (await rolledFilterVisitorTotals(db, range, tz, until, f)) ??
    await filteredVisitorTotals(db, range, tz, until, f);
}
