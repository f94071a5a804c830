// The roll-up job: folds events into the roll-up tables (migrations/00006) up to a couple of minutes ago,
// so dashboard queries read raw events only for the last few minutes.
import type { Db, Queryable } from "../db/client.ts";
import { ANALYTICS_LOCK } from "../db/job_locks.ts";
import { rollUpAudience } from "../db/audience.ts";
import { fillLeadStates } from "../db/leads.ts";
import {
  backfillDone,
  type BackfillFlag,
  backfillPending,
  earliestLeadDay,
  earliestRawDay,
  rollUpActions,
  rollUpLeadDims,
  rollUpLeadTotals,
  rollupState,
  rollUpTotals,
  rollUpVisitRanks,
  roomForRollups,
  setRolledUntil,
} from "../db/rollups.ts";
import { rollUpVisitors } from "../db/unique_visitors.ts";
import { rollUpEngagement, rollUpOpenDaySessions, rollUpSessionSeconds } from "../db/engagement.ts";
import { rollUpHourly } from "../db/hourly.ts";
import { rollUpFirstVisits } from "../db/day_first_visits.ts";
import { rollUpFilterEngagement } from "../db/filter_engagement.ts";
import { rollUpFilterRanks } from "../db/filter_ranks.ts";
import { rollUpFilterPageEngagement } from "../db/filter_page_engagement.ts";
import { rollUpFilterVisitors } from "../db/filter_visitors.ts";
import { rollUpFilterActions } from "../db/filter_actions.ts";
import { rollUpSessionKeys } from "../db/session_keys.ts";
import { rollUpFilterLeads } from "../db/filter_leads.ts";
import { rollUpMonths } from "../db/months.ts";
import { rollUpUtmDetail } from "../db/utm_detail.ts";
import { addDays, todayIn } from "../shared/dashboard_math.ts";
import { type JobSpec, runJobOnce } from "./jobs.ts";

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
  // The WhatsApp state of leads stored before it was (migrations/00023); nothing to do once they have it.
  await fillLeadStates(tx);
  const previous = state.until ?? null;
  if (previous !== null && previous >= until) return report;
  // The first day not final yet: the watermark's day (after 00005 alone, the day after its last one).
  const from = previous !== null
    ? todayIn(timeZone, previous)
    : state.through !== null
    ? addDays(state.through, 1)
    : await earliestRawDay(tx, timeZone);
  // The first day whose day rows this run rewrites: the months are rewritten from its month on.
  let rewritten = from !== null && from <= through ? from : null;
  if (from !== null && from <= through) {
    await roomForRollups(tx);
    report.days = await rollUpTotals(tx, from, until, timeZone);
    report.rankRows = await rollUpVisitRanks(tx, from, until, timeZone);
    report.sourceRows = await rollUpActions("utm_source", tx, from, until, timeZone);
    report.channelRows = await rollUpActions("channel", tx, from, until, timeZone);
    await rollUpAudience(tx, from, until, timeZone);
    await rollUpVisitors(tx, from, until, timeZone);
  }
  // Engagement (migrations/00018), the rankings and engagement per filter value (00022), the creatives and
  // keywords (00024), the time on page (00025), the unique visitors (00026) and the clicks (00027) per filter
  // value (and pair of values, 00028), the clicks' and leads' session keys (00029) and the leads' keys added
  // up (00037), the sessions of the watermark's day (00032), each day's first visits (00033), session seconds
  // (00034) and hours (00031, 00035) roll up from `from` too; the first run after each migration starts at the
  // first day that still has raw rows instead (the days rolled up before it have no rows there: db/rollups.ts
  // BackfillFlag). The leads per day (00036) and per value of their own columns (00039) are never purged: the
  // first run after their migration, and the very first run, start at the first lead's day instead, which may
  // come before the first event kept.
  const firstKept = async () =>
    state.purgedThrough !== null ? addDays(state.purgedThrough, 1) : await earliestRawDay(tx, timeZone);
  const rollUpWithBackfill = async (
    flag: BackfillFlag,
    rollUps: ((tx: Queryable, from: string, until: Date, tz: string) => Promise<unknown>)[],
    { firstDay = firstKept, onFirstRun = false } = {},
  ) => {
    const backfill = await backfillPending(tx, flag);
    let start = from;
    if (backfill || (onFirstRun && previous === null)) {
      const first = await firstDay();
      if (first !== null && (start === null || first < start)) start = first;
    }
    if (start !== null && start <= through) {
      for (const rollUp of rollUps) await rollUp(tx, start, until, timeZone);
      if (rewritten === null || start < rewritten) rewritten = start;
    }
    if (backfill) await backfillDone(tx, flag);
  };
  await rollUpWithBackfill("engagement_backfill", [rollUpEngagement]);
  await rollUpWithBackfill("open_day_sessions_backfill", [rollUpOpenDaySessions]);
  await rollUpWithBackfill("daily_session_seconds_backfill", [rollUpSessionSeconds]);
  await rollUpWithBackfill("hourly_totals_backfill", [rollUpHourly]);
  await rollUpWithBackfill("daily_first_visits_backfill", [rollUpFirstVisits]);
  await rollUpWithBackfill("filter_engagement_backfill", [rollUpFilterEngagement, rollUpFilterRanks]);
  await rollUpWithBackfill("filter_page_engagement_backfill", [rollUpFilterPageEngagement]);
  await rollUpWithBackfill("filter_visitors_backfill", [rollUpFilterVisitors]);
  await rollUpWithBackfill("filter_actions_backfill", [rollUpFilterActions]);
  await rollUpWithBackfill("utm_detail_backfill", [rollUpUtmDetail]);
  await rollUpWithBackfill("session_keys_backfill", [rollUpSessionKeys, rollUpFilterLeads]);
  await rollUpWithBackfill("daily_lead_totals_backfill", [rollUpLeadTotals], {
    firstDay: () => earliestLeadDay(tx, timeZone),
    onFirstRun: true,
  });
  await rollUpWithBackfill("daily_lead_dims_backfill", [rollUpLeadDims], {
    firstDay: () => earliestLeadDay(tx, timeZone),
    onFirstRun: true,
  });
  // The months of the rankings' and the pages' day rows (00038), after every day row they add up.
  if (rewritten !== null) await rollUpMonths(tx, rewritten);
  await setRolledUntil(tx, through, until);
  report.through = through;
  return report;
}

export interface RollupJobOptions {
  timeZone: string;
  /** Delay before the first run; default five seconds. */
  firstDelay?: number;
  /** Time between runs; default five minutes (the raw part of a dashboard query stays that small). */
  every?: number;
  now?: () => Date;
}

/** The roll-up job: soon after start, then every five minutes, under the analytics lock. */
export function rollupJob(db: Db, options: RollupJobOptions): JobSpec<RollupReport> {
  return {
    name: "rollups",
    db,
    every: options.every ?? 300_000,
    firstDelay: options.firstDelay ?? 5_000,
    jitter: 0.1,
    lock: ANALYTICS_LOCK,
    now: options.now,
    run: (tx, now) => rollUpToNow(tx, options.timeZone, now),
  };
}

/** Runs the roll-up job once in its own transaction; null when another instance holds the lock. */
export async function runRollups(db: Db, timeZone: string, now: Date): Promise<RollupReport | null> {
  const outcome = await runJobOnce(rollupJob(db, { timeZone }), now);
  return outcome.status === "done" ? outcome.result : null;
}
