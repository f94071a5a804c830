// Unique visitors, exact across months without an address (docs/UNIQUE_VISITORS.md has the why).
//
// THE DESIGN
// A visit stores a visitor key: an HMAC of the client address under its local month's salt, so one address
// has one key per month. It also stores `link_keys`: the same address's keys for the next months that start
// within LINK_WINDOW_DAYS (61) days of the visit (migrations/00009). Two visits of one address up to 61 days
// apart therefore always share a key: the later one's own key is among the earlier one's link keys.
//
// The roll-up job (rollUpVisitors) keeps two tables:
//   visitor_days (month, visitor_key): which days the key was seen.
//     `days`   bit d - 1 is day d of `month` (an int: 31 bits).
//     `before` bit i is the day `month - 1 - i`, for i < 62: the address's visits in the 62 days before the
//              month, learnt from those visits' link keys (a bigint).
//   visitor_spans (last_day, first_day): the distinct visitors of the days [first_day, last_day], for every
//     range of up to 62 days ending on a rolled-up day (62 rows a day).
// An address counts in [a, d] through exactly one visit: its first visit v on or after a, the one whose
// previous visit p (by the same address, any month; -infinity when none) is before a. So the roll-up finds,
// for each visit v of the run, its previous visit p: the latest of its earlier visits in the run (under the
// same key, own or linked), the highest day bit of its month's `days` before the run, and the lowest bit of its
// `before` (the most recent day before the month). Counting visits per (p, v) gives, for each first day a,
// the visits of day v that are first on or after a: v - 61 <= a <= v and a > p. Each range ending on a run
// day is then the same range ending the day before the run plus those counts.
//
// visitorTotals reads a period as: the span of its first 62 rolled-up days (one primary-key lookup); for each
// later day d, d's visitors not seen in the 61 days before (span [d - 61, d] minus [d - 61, d - 1]); purged
// days' daily uniques; and the raw visits after the watermark whose key has no bit in the period (in
// `days` or `before`) and is not the link key of an earlier month's raw visit of the period.
//
// The bit helpers below are PostgreSQL's own bit arithmetic and bit strings (`position` in a bit(64)), which
// PGlite and PostgreSQL 15 both have.
import { EXACT_VISITOR_DAYS, LINK_WINDOW_DAYS } from "../shared/dashboard_math.ts";
import type { Queryable } from "./client.ts";
import { dayVisitorsBeforeCut } from "./day_first_visits.ts";
import { type DayRange, RAW, ROLLED, splitWith } from "./dashboard_queries.ts";

/** SQL: a bigint with bits lo..hi set (0-based, inclusive); 0 when lo > hi. */
const bitsFromTo = (lo: string, hi: string) =>
  `(case when (${lo}) <= (${hi}) then (1::bigint << ((${hi}) + 1)) - (1::bigint << (${lo})) else 0 end)`;
/** SQL: the index of the highest 1 bit of a bigint, null when it is 0 (a bit(64) lists bit 63 first). */
const highestBit = (x: string) => `nullif(64 - position(B'1' in (${x})::bit(64)), 64)`;
/** SQL: the index of the lowest 1 bit of a bigint, null when it is 0 (`x & -x` keeps only that bit). */
const lowestBit = (x: string) => highestBit(`(${x}) & -(${x})`);
/** SQL: day d of a date's month is bit d - 1 of `days`. */
const dayBit = (date: string) => `(extract(day from ${date})::int - 1)`;

// $1 first day of the run, $2 the instant the run ends (exclusive), $3 time zone.
const RUN = "occurred_at >= ($1::date::timestamp at time zone $3) and occurred_at < $2";

/**
 * Adds the visitor keys seen from from's local midnight to `until` to visitor_days, and rewrites
 * visitor_spans for every range of up to 62 days ending on one of those days (`from` is the first day not
 * final yet). Rerunning it is harmless: the bits are or-ed, and a previous visit before the run comes from the
 * bits of earlier days.
 */
export async function rollUpVisitors(db: Queryable, from: string, until: Date, tz: string): Promise<void> {
  await db.query("delete from visitor_spans where last_day >= $1::date", [from]);
  await db.query(
    `with run_visits as (
       select (occurred_at at time zone $3)::date as day, date_trunc('month', occurred_at at time zone $3)::date as month,
              visitor_key, link_keys
         from visits where ${RUN}),
     -- Each visit's day under its own key, and under each of its link keys (in the month that key is for).
     own as (select distinct month, visitor_key, day from run_visits),
     linked as (
       select distinct (r.month + make_interval(months => l.i::int))::date as month, l.key as visitor_key, r.day
         from (select distinct month, day, link_keys from run_visits where link_keys is not null) r,
              unnest(r.link_keys) with ordinality as l(key, i)),
     -- The run's days go into the bitmaps; the reads below see the bitmaps as they were before (one snapshot).
     recorded as (
       insert into visitor_days (month, visitor_key, days, last_day, before)
       select month, visitor_key,
              coalesce(bit_or(1 << ${dayBit("day")}) filter (where day >= month), 0),
              coalesce(max(extract(day from day)::int) filter (where day >= month), 0),
              coalesce(bit_or(1::bigint << (month - 1 - day)) filter (where day < month), 0)
         from (select * from own union all select * from linked) p
        group by month, visitor_key
       on conflict (month, visitor_key) do update
         set days = visitor_days.days | excluded.days, last_day = greatest(visitor_days.last_day, excluded.last_day),
             before = visitor_days.before | excluded.before),
     in_run as (
       select month, visitor_key, day, is_own,
              lag(day) over (partition by month, visitor_key order by day) as previous_in_run
         from (select month, visitor_key, day, true as is_own from own
               union all select month, visitor_key, day, false from linked) p),
     -- Each own visit's previous visit p: in the run, else the latest day of its month before the run, else
     -- the most recent day of the 62 before its month (\`before\` shifted so bit 0 is the day before the run).
     previous as (
       select r.day, greatest(r.previous_in_run,
                              r.month + ${
      highestBit(`(coalesce(d.days, 0) & ((1 << ${dayBit("s.run_start")}) - 1))::bigint`)
    },
                              r.month - 1 - s.shift - ${lowestBit("s.before_run")}) as p
         from in_run r left join visitor_days d on d.month = r.month and d.visitor_key = r.visitor_key,
              lateral (select greatest($1::date, r.month) as run_start, greatest(r.month - $1::date, 0) as shift) s0,
              lateral (select s0.run_start, s0.shift,
                              case when s0.shift >= 62 then 0 else coalesce(d.before, 0) >> s0.shift end as before_run) s
        where r.is_own),
     pairs as (select coalesce(p, '-infinity'::date) as p, day, count(*) as n from previous group by 1, 2),
     -- Visits on \`day\` that are their address's first on or after first_day, for first_day in [day - 61, day].
     firsts as (
       select pairs.day - k as first_day, pairs.day, sum(pairs.n) as n
         from pairs, generate_series(0, ${LINK_WINDOW_DAYS}) k
        where pairs.day - k > pairs.p group by 1, 2),
     ranges as (
       select d::date as last_day, (d::date - k) as first_day
         from generate_series($1::date::timestamp, ($2::timestamptz at time zone $3)::date::timestamp, interval '1 day') d,
              generate_series(0, ${LINK_WINDOW_DAYS}) k)
     insert into visitor_spans (last_day, first_day, visitors)
     select ranges.last_day, ranges.first_day, (coalesce(before_run.visitors, 0) + coalesce(sum(firsts.n), 0))::int
       from ranges
       left join visitor_spans before_run on before_run.last_day = $1::date - 1 and before_run.first_day = ranges.first_day
       left join firsts on firsts.first_day = ranges.first_day and firsts.day <= ranges.last_day
      group by ranges.last_day, ranges.first_day, before_run.visitors`,
    [from, until, tz],
  );
}

/**
 * Clears the visitor bits of the days before `day` (retention purges their raw rows) and the visitor spans
 * that start before it; returns visitor_days rows dropped.
 */
export async function forgetVisitorDaysBefore(db: Queryable, day: string): Promise<number> {
  await db.query(
    `update visitor_days set days = days & ~${bitsFromTo("0", `${dayBit("$1::date")} - 1`)}::int
      where month = date_trunc('month', $1::date::timestamp)::date`,
    [day],
  );
  // Keep the \`before\` bits of days on or after \`day\`: bit i is the day month - 1 - i, so i <= month - 1 - day.
  await db.query(
    `update visitor_days set before = before & ${bitsFromTo("0", "least(month - 1 - $1::date, 61)")}
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
  // One day up to a time of day ("Hoje"'s comparison): from that day's first visits (db/day_first_visits.ts).
  if (until !== null && range.start === range.end) {
    const day = await dayVisitorsBeforeCut(db, range.start, tz, until);
    if (day) return { ...day, approximate: false };
  }
  const rows = await db.query<VisitorTotals>(
    `with ${splitWith("$4")},
     -- The period's rolled-up unpurged days [first_day, last_day] (last_day < first_day when there are none).
     rolled as (
       select b.xs as first_day, case when isfinite(b.re) and b.re >= b.xs then b.re else b.xs - 1 end as last_day
         from b),
     exact_head as (
       select first_day, least(last_day, first_day + ${EXACT_VISITOR_DAYS - 1}) as last_day
         from rolled where last_day >= first_day),
     recent as (
       select date_trunc('month', occurred_at at time zone $3)::date as month, visitor_key, link_keys
         from visits, b where ${RAW("occurred_at")}),
     recent_keys as (select distinct month, visitor_key from recent),
     -- Only recent visits of an earlier month than the latest can link to another recent visit's key.
     recent_linked as (
       select distinct (r.month + make_interval(months => l.i::int))::date as month, l.key as visitor_key
         from recent r, unnest(r.link_keys) with ordinality as l(key, i)
        where r.month < (select max(month) from recent_keys)),
     -- Per month of the recent keys, the bits of the rolled-up days in its \`days\` and in its \`before\`.
     rolled_bits as (
       select k.month,
              case when x.lo <= x.hi then ${
      bitsFromTo(dayBit("x.lo"), dayBit("x.hi"))
    }::int else 0 end as days_mask,
              ${bitsFromTo("y.lo", "y.hi")} as before_mask
         from (select distinct month from recent_keys) k, rolled,
              lateral (select greatest(rolled.first_day, k.month) as lo,
                              least(rolled.last_day, (k.month + interval '1 month')::date - 1) as hi) x,
              lateral (select greatest(k.month - 1 - rolled.last_day, 0) as lo,
                              least(k.month - 1 - rolled.first_day, 61) as hi) y)
     select (
       (select coalesce(sum((select s.visitors from visitor_spans s
                              where s.last_day = exact_head.last_day and s.first_day = exact_head.first_day)), 0)
          from exact_head)
       + (select coalesce(sum(a.visitors - coalesce(p.visitors, 0)), 0)
            from rolled cross join generate_series(${EXACT_VISITOR_DAYS}, rolled.last_day - rolled.first_day) k
            join visitor_spans a
              on a.last_day = rolled.first_day + k and a.first_day = rolled.first_day + k - ${LINK_WINDOW_DAYS}
            left join visitor_spans p
              on p.last_day = rolled.first_day + k - 1 and p.first_day = rolled.first_day + k - ${LINK_WINDOW_DAYS})
       + (select coalesce(sum(unique_visitors), 0) from daily_totals, b where day between b.s and b.pe)
       + (select count(*) from recent_keys k join rolled_bits using (month)
           where not exists (select 1 from recent_linked l where l.month = k.month and l.visitor_key = k.visitor_key)
             -- A scalar subquery per key (a primary-key lookup; these are the last few minutes' keys): as
             -- an anti-join, the planner would hash the whole of visitor_days. None when no rolled-up day of
             -- the range could hold the key (a day's raw rows compared on their own: "Hoje" against
             -- yesterday until the same time).
             and case when rolled_bits.days_mask = 0 and rolled_bits.before_mask = 0 then true else not coalesce((
               select d.days & rolled_bits.days_mask <> 0 or d.before & rolled_bits.before_mask <> 0
                 from visitor_days d where d.month = k.month and d.visitor_key = k.visitor_key), false) end)
     )::int as "uniqueVisitors",
     ((select coalesce(sum(visits), 0) from daily_totals, b where ${ROLLED})
       + (select count(*) from visits, b where ${RAW("occurred_at")}))::int as visits,
     (select rolled.last_day - rolled.first_day >= ${EXACT_VISITOR_DAYS} or (b.pe >= b.s and b.e > b.s)
        from rolled, b) as approximate`,
    [range.start, range.end, tz, until],
  );
  return rows[0];
}
