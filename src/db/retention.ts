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

/** Deletes the raw events of `table` before `boundary`; returns how many. */
export async function purgeEventsBefore(db: Queryable, table: EventTable, boundary: Date): Promise<number> {
  if (!EVENT_TABLES.includes(table)) throw new Error(`not an event table: ${table}`);
  const rows = await db.query<{ n: number }>(
    `with d as (delete from ${table} where occurred_at < $1 returning 1) select count(*)::int as n from d`,
    [boundary],
  );
  return rows[0].n;
}
