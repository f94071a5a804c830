// Advisory locks of the background jobs (services/jobs.ts). Each is transaction-scoped and paired with the
// schema (advisory locks are per database, and several apps or test runs may share one in their own
// schemas): a job whose lock another process holds skips its run.
import type { Queryable } from "./client.ts";

/**
 * Roll-ups and the purge of raw events: one at a time, so a purge never runs beside a roll-up of the days it
 * deletes. The number the retention job always took, so old and new instances exclude each other during a
 * rolling update.
 */
export const ANALYTICS_LOCK = 720_451_994;
/** Expired sessions. */
export const SESSIONS_LOCK = 720_451_995;
/** Rate-limit windows and login failures. */
export const COUNTERS_LOCK = 720_451_996;
/** Month salts. */
export const SALTS_LOCK = 720_451_997;

/** Takes the lock for the current transaction; false when another process holds it. */
export async function tryJobLock(tx: Queryable, key: number): Promise<boolean> {
  const rows = await tx.query<{ locked: boolean }>(
    "select pg_try_advisory_xact_lock($1, hashtext(current_schema())) as locked",
    [key],
  );
  return rows[0].locked;
}

/** Waits for the lock, then holds it for the current transaction (an erasure waits out a roll-up run). */
export async function waitForJobLock(tx: Queryable, key: number): Promise<void> {
  await tx.query("select pg_advisory_xact_lock($1, hashtext(current_schema()))", [key]);
}
