// The roll-up job: folds events into the roll-up tables (migrations/00006) up to a couple of minutes ago,
// so dashboard queries read raw events only for the last few minutes.
import type { Db, Queryable } from "../db/client.ts";
import { tryRetentionLock } from "../db/retention.ts";
import {
  earliestRawDay,
  rollUpChannelActions,
  rollUpSourceActions,
  rollupState,
  rollUpTotals,
  rollUpVisitors,
  rollUpVisitRanks,
  roomForRollups,
  setRolledUntil,
} from "../db/rollups.ts";
import { log } from "../core/log.ts";
import { addDays, todayIn } from "../shared/analytics.ts";

/**
 * Events are rolled up only once they are this old: writes are stamped when received but may commit a
 * little later (batched tracking), and an event landing before the watermark would never be counted.
 */
export const ROLLUP_GRACE_MS = 2 * 60_000;

export interface RollupReport {
  /** The last local day with roll-up rows after this run (null: nothing to roll up yet). */
  through: string | null;
  /** Days written (or rewritten) with totals, ranking rows and source rows in this run. */
  days: number;
  rankRows: number;
  sourceRows: number;
  channelRows: number;
}

/** Where the watermark goes at `now`. */
export function rollUpTarget(now: Date): Date {
  return new Date(now.getTime() - ROLLUP_GRACE_MS);
}

/**
 * Rolls up the events before `now` minus the grace period: rewrites the roll-ups of the day the watermark
 * is in and of every later day, then moves the watermark; call inside a transaction that holds the
 * retention lock (so one instance does it, and readers see all or nothing).
 */
export async function rollUpToNow(tx: Queryable, timeZone: string, now: Date): Promise<RollupReport> {
  const until = rollUpTarget(now);
  const through = todayIn(timeZone, until);
  const state = await rollupState(tx);
  const report: RollupReport = {
    through: state.through,
    days: 0,
    rankRows: 0,
    sourceRows: 0,
    channelRows: 0,
  };
  const previous = state.until ?? null;
  if (previous !== null && previous >= until) return report;
  // The first day not final yet: the watermark's day (after 00005 alone, the day after its last one).
  const from = previous !== null
    ? todayIn(timeZone, previous)
    : state.through !== null
    ? addDays(state.through, 1)
    : await earliestRawDay(tx, timeZone);
  if (from !== null && from <= through) {
    await roomForRollups(tx);
    report.days = await rollUpTotals(tx, from, until, timeZone);
    report.rankRows = await rollUpVisitRanks(tx, from, until, timeZone);
    report.sourceRows = await rollUpSourceActions(tx, from, until, timeZone);
    report.channelRows = await rollUpChannelActions(tx, from, until, timeZone);
    await rollUpVisitors(tx, from, until, timeZone);
  }
  await setRolledUntil(tx, through, until);
  report.through = through;
  return report;
}

/** Runs the roll-up job once in its own transaction; null when another instance holds the lock. */
export async function runRollups(db: Db, timeZone: string, now: Date): Promise<RollupReport | null> {
  return await db.transaction(async (tx) => {
    if (!await tryRetentionLock(tx)) return null;
    return await rollUpToNow(tx, timeZone, now);
  });
}

export interface RollupTimerOptions {
  timeZone: string;
  /** Delay before the first run; default five seconds. */
  firstDelayMs?: number;
  /** Time between runs; default five minutes (the raw part of a dashboard query stays that small). */
  intervalMs?: number;
  now?: () => Date;
}

/** Runs the job soon after start and then every interval, until `stop()` (which waits for a run in progress). */
export function startRollups(db: Db, options: RollupTimerOptions): { stop(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    running = runRollups(db, options.timeZone, options.now?.() ?? new Date())
      .then((report) => {
        if (report?.days) log.debug("roll-up run", { ...report });
      })
      .catch((error) => log.error("roll-up run failed", { error: String(error), stack: error?.stack }))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 300_000);
      });
  };
  timer = setTimeout(tick, options.firstDelayMs ?? 5_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
