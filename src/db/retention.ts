// Roll-ups and purges of the retention job. Days are calendar days in the analytics time zone; `boundary`
// is always a local midnight, so a day is either wholly rolled up and purged or wholly kept raw.
import type { Queryable } from "./client.ts";

/** Every instance takes this transaction-scoped advisory lock; only the holder runs the job. */
export const RETENTION_LOCK_KEY = 720_451_994;

/** Takes the retention lock for the current transaction; false when another instance holds it. */
export async function tryRetentionLock(tx: Queryable): Promise<boolean> {
  const rows = await tx.query<{ locked: boolean }>("select pg_try_advisory_xact_lock($1) as locked", [
    RETENTION_LOCK_KEY,
  ]);
  return rows[0].locked;
}

/** The local midnight `days` days before the local date of `now`: raw events before it are purged. */
export async function retentionBoundary(db: Queryable, now: Date, tz: string, days: number): Promise<Date> {
  const rows = await db.query<{ boundary: Date }>(
    "select ((($1::timestamptz at time zone $2)::date - $3::int)::timestamp at time zone $2) as boundary",
    [now, tz, days],
  );
  return new Date(rows[0].boundary);
}

const LOCAL_DAY = "(occurred_at at time zone $2)::date";

/** Writes daily_totals for every local day with raw events before `boundary`; existing days are kept. */
export async function rollUpTotals(db: Queryable, boundary: Date, tz: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_totals (day, visits, unique_visitors, clicks, conversions)
       select day, sum(v)::int, sum(u)::int, sum(c)::int, sum(k)::int from (
         select ${LOCAL_DAY} as day, count(*) as v, count(distinct visitor_key) as u, 0 as c, 0 as k
           from visits where occurred_at < $1 group by 1
         union all
         select ${LOCAL_DAY}, 0, 0, count(*), 0 from clicks where occurred_at < $1 group by 1
         union all
         select ${LOCAL_DAY}, 0, 0, 0, count(*) from conversions where occurred_at < $1 group by 1
       ) t group by day
       on conflict (day) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [boundary, tz],
  );
  return rows[0].n;
}

/** Writes daily_visit_ranks (visits per UTM source, UTM campaign and page) for days before `boundary`. */
export async function rollUpVisitRanks(db: Queryable, boundary: Date, tz: string): Promise<number> {
  const dimension = (name: string, column: string) =>
    `select ${LOCAL_DAY} as day, '${name}' as dimension, ${column} as key, count(*)::int as visits
       from visits where occurred_at < $1 and ${column} is not null and ${column} <> '' group by 1, 3`;
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_visit_ranks (day, dimension, key, visits)
       ${dimension("utm_source", "utm_source")}
       union all ${dimension("utm_campaign", "utm_campaign")}
       union all ${dimension("page", "source")}
       on conflict (day, dimension, key) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [boundary, tz],
  );
  return rows[0].n;
}

/** Writes daily_source_actions (clicks and conversions per UTM source, '' for none) for days before `boundary`. */
export async function rollUpSourceActions(db: Queryable, boundary: Date, tz: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_source_actions (day, utm_source, clicks, conversions)
       select day, s, sum(c)::int, sum(k)::int from (
         select ${LOCAL_DAY} as day, coalesce(utm_source, '') as s, 1 as c, 0 as k
           from clicks where occurred_at < $1
         union all
         select ${LOCAL_DAY}, coalesce(utm_source, ''), 0, 1 from conversions where occurred_at < $1
       ) t group by day, s
       on conflict (day, utm_source) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [boundary, tz],
  );
  return rows[0].n;
}

/** Raw event tables the job purges. */
export type EventTable = "visits" | "clicks" | "conversions";
const EVENT_TABLES: readonly EventTable[] = ["visits", "clicks", "conversions"];

/** Deletes the raw events of `table` before `boundary`; returns how many. */
export async function purgeEventsBefore(db: Queryable, table: EventTable, boundary: Date): Promise<number> {
  if (!EVENT_TABLES.includes(table)) throw new Error(`not an event table: ${table}`);
  const rows = await db.query<{ n: number }>(
    `with d as (delete from ${table} where occurred_at < $1 returning 1) select count(*)::int as n from d`,
    [boundary],
  );
  return rows[0].n;
}
