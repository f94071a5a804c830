// Purges of raw events (their roll-ups are in rollups.ts). `boundary` is always a local midnight in
// the analytics time zone, so a day is either wholly purged or wholly kept raw.
import type { Queryable } from "./client.ts";
import { EVENT_TABLES, type EventTable } from "./event_columns.ts";

export type { EventTable } from "./event_columns.ts";

/** The local midnight `days` days before the local date of `now`: raw events before it are purged. */
export async function retentionBoundary(db: Queryable, now: Date, tz: string, days: number): Promise<Date> {
  const rows = await db.query<{ boundary: Date }>(
    "select ((($1::timestamptz at time zone $2)::date - $3::int)::timestamp at time zone $2) as boundary",
    [now, tz, days],
  );
  return new Date(rows[0].boundary);
}

/**
 * The per-day roll-ups read only together with their day's raw rows (a cut day's first visits and session
 * seconds, migrations 00033 and 00034): purged with them.
 */
const DAYS_READ_WITH_RAW_ROWS = ["daily_first_visits", "daily_session_seconds"] as const;

/** Deletes those roll-ups' rows of the days before `day`, the first local day kept. */
export async function forgetDaysReadWithRawRowsBefore(db: Queryable, day: string): Promise<void> {
  for (const table of DAYS_READ_WITH_RAW_ROWS) {
    await db.query(`delete from ${table} where day < $1::date`, [day]);
  }
}

/** Deletes the raw events of `table` before `boundary`; returns how many. */
export async function purgeEventsBefore(db: Queryable, table: EventTable, boundary: Date): Promise<number> {
  if (!EVENT_TABLES.includes(table)) throw new Error(`not an event table: ${table}`);
  const rows = await db.query<{ n: number }>(
    `with d as (delete from ${table} where occurred_at < $1 returning 1) select count(*)::int as n from d`,
    [boundary],
  );
  return rows[0].n;
}
