// The roll-up job: folds every closed local day into the roll-up tables (migrations/00006), so dashboard
// queries read raw events only for the days after the watermark (today, and a day that closed minutes ago).
import type { Db, Queryable } from "../db/client.ts";
import { tryRetentionLock } from "../db/retention.ts";
import {
  earliestRawDay,
  rollUpSourceActions,
  rollupState,
  rollUpTotals,
  rollUpVisitorDay,
  rollUpVisitRanks,
  setRollupThrough,
} from "../db/rollups.ts";
import { addDays, todayIn } from "../shared/analytics.ts";

/**
 * A day is rolled up only this long after it closed: writes are stamped when received but may commit a
 * little later (batched tracking), and an event landing in an already rolled-up day would never be counted.
 */
export const ROLLUP_GRACE_MS = 15 * 60_000;

export interface RollupReport {
  /** The last day rolled up after this run (null: no day closed yet). */
  through: string | null;
  /** Days that got daily totals, ranking rows and source rows in this run. */
  days: number;
  rankRows: number;
  sourceRows: number;
}

/** The last local day that may be rolled up at `now`. */
export function lastClosedDay(timeZone: string, now: Date): string {
  return addDays(todayIn(timeZone, new Date(now.getTime() - ROLLUP_GRACE_MS)), -1);
}

/**
 * Rolls up every closed day after the watermark, oldest first, then moves the watermark; call inside a
 * transaction that holds the retention lock (so one instance does it, and readers see all or nothing).
 */
export async function rollUpClosedDays(tx: Queryable, timeZone: string, now: Date): Promise<RollupReport> {
  const target = lastClosedDay(timeZone, now);
  const state = await rollupState(tx);
  const report: RollupReport = { through: state.through, days: 0, rankRows: 0, sourceRows: 0 };
  if (state.through !== null && state.through >= target) return report;
  const from = state.through !== null ? addDays(state.through, 1) : await earliestRawDay(tx, timeZone);
  if (from !== null && from <= target) {
    report.days = await rollUpTotals(tx, from, target, timeZone);
    report.rankRows = await rollUpVisitRanks(tx, from, target, timeZone);
    report.sourceRows = await rollUpSourceActions(tx, from, target, timeZone);
    // Day by day, in order: each day's visitor ranges are counted from the keys seen up to that day.
    for (let day = from; day <= target; day = addDays(day, 1)) await rollUpVisitorDay(tx, day, timeZone);
  }
  await setRollupThrough(tx, target);
  report.through = target;
  return report;
}

/** Runs the roll-up job once in its own transaction (start-up, seeding); null when another instance holds the lock. */
export async function runRollups(db: Db, timeZone: string, now: Date): Promise<RollupReport | null> {
  return await db.transaction(async (tx) => {
    if (!await tryRetentionLock(tx)) return null;
    return await rollUpClosedDays(tx, timeZone, now);
  });
}
