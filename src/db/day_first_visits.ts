// A day's unique visitors up to a time of day (migrations/00033, docs/UNIQUE_VISITORS.md "A day up to a time").
// "Hoje" is compared with yesterday up to the same time of day: the distinct visitor keys of yesterday's page
// views before that time. Read from the raw rows, that is a day of page views grouped by key (about 110,000 at
// 10,000,000 visits over 90 days). The roll-up job keeps instead, per local day, the sorted seconds (elapsed since
// the local midnight, rounded down) of each key's first page view that day: a key was seen before a whole second
// T exactly when its first second is below T, so the count is the array's elements below it.
import type { Queryable } from "./client.ts";
import { LOCAL_DAY, SPAN } from "./rollups.ts";
import { BEFORE_CUT } from "./hourly.ts";

/** Rewrites daily_first_visits from `from` on with the page views from from's local midnight to `until`. */
export async function rollUpFirstVisits(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_first_visits where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_first_visits (day, seconds)
       select day, array_agg(s order by s) from (
         select ${LOCAL_DAY} as day,
                floor(extract(epoch from min(occurred_at) - (${LOCAL_DAY}::timestamp at time zone $3)))::int as s
           from visits where ${SPAN} group by 1, visitor_key) t
        group by day
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * The unique visitors and page views of local day `day` before `cut` (a local time of day, HH:mm:ss), when the
 * roll-ups can answer: the day has its row and the watermark has passed the cut (so every first page view before
 * it is in the row), and the day's raw rows are kept. Null otherwise.
 */
export async function dayVisitorsBeforeCut(
  db: Queryable,
  day: string,
  tz: string,
  cut: string,
): Promise<{ uniqueVisitors: number; visits: number } | null> {
  const rows = await db.query<{ uniqueVisitors: number; visits: number; ok: boolean }>(
    `with t as (
       select $1::date::timestamp at time zone $2 as midnight, ($1::date + $3::time)::timestamp at time zone $2 as cut),
     st as (
       select coalesce((select until from rollup_state), '-infinity') as until,
              coalesce((select purged_through from rollup_state), '-infinity'::date) as purged)
     -- The seconds below the cut: width_bucket counts a sorted array's elements up to a value by binary search
     -- (0.5 ms for a day of 54,000 first visits, where unnesting them took 9 to 13 ms).
     select coalesce((select width_bucket(ceil(extract(epoch from t.cut - t.midnight))::int - 1, f.seconds)
                        from daily_first_visits f, t where f.day = $1::date), 0)::int as "uniqueVisitors",
            cut_day.views::int as visits,
            exists (select 1 from daily_first_visits where day = $1::date) and st.until >= t.cut
              and st.purged < $1::date and not exists (select 1 from daily_first_visits_backfill) as ok
       from t, st, ${BEFORE_CUT("$1::date", "($1::date + $3::time)::timestamp at time zone $2", "$2")}`,
    [day, tz, cut],
  );
  const row = rows[0];
  return row.ok ? { uniqueVisitors: row.uniqueVisitors, visits: row.visits } : null;
}
