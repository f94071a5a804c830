// Retention: what the site forgets, and when. Four jobs, each on its own lock: raw events past
// RETENTION_DAYS (once rolled up), expired sessions, old rate-limit counters, and month salts 40 days after
// their month ends (so old visitor keys can never be recomputed).
import type { Db, Queryable } from "../db/client.ts";
import { ANALYTICS_LOCK, COUNTERS_LOCK, SALTS_LOCK, SESSIONS_LOCK } from "../db/job_locks.ts";
import { purgeLoginFailures } from "../db/login_failures.ts";
import { purgeWindows } from "../db/rate_limits.ts";
import {
  type EventTable,
  forgetDaysReadWithRawRowsBefore,
  purgeEventsBefore,
  retentionBoundary,
} from "../db/retention.ts";
import { setPurgedThrough } from "../db/rollups.ts";
import { forgetVisitorDaysBefore } from "../db/unique_visitors.ts";
import { forgetFilterRollupsBefore } from "../db/filter_dimensions.ts";
import { forgetClickKeysBefore } from "../db/session_keys.ts";
import { forgetHoursBefore } from "../db/hourly.ts";
import { destroySaltsBefore } from "../db/salts.ts";
import { deleteExpiredSessions } from "../db/sessions.ts";
import { addDays, todayIn } from "../shared/dashboard_math.ts";
import type { JobSpec } from "./jobs.ts";
import { type RollupReport, rollUpToNow } from "./rollups.ts";
import { monthIn, type VisitorKeys } from "./visitor_key.ts";

const DAY_MS = 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/**
 * Salts live until this long after their month ends (docs/PRODUCT.md, _Security and privacy_: "about forty
 * days").
 */
export const SALT_GRACE_DAYS = 40;
/** Rate-limit windows and login failures older than this no longer count for anything (longest window: 15 min). */
export const COUNTER_MAX_AGE_MS = DAY_MS;

export interface RawEventsReport {
  /** Raw events before this instant (a local midnight) were purged. */
  boundary: string;
  /** What the roll-up (run first, in the same transaction) added. */
  rolledUp: RollupReport;
  purged: Record<EventTable | "visitorKeys", number>;
}

/**
 * Rolls everything up to two minutes ago (so the days about to go are always rolled up), then deletes the
 * raw rows before the local midnight `retentionDays` days ago, with the visitor bits, the filter roll-ups, the
 * hourly totals, the first visits and the session seconds of those days, and moves the purge watermark. Call
 * inside a transaction holding ANALYTICS_LOCK: a crash leaves all or nothing.
 */
export async function purgeRawEvents(
  tx: Queryable,
  options: { retentionDays: number; timeZone: string },
  now: Date,
): Promise<RawEventsReport> {
  const { timeZone } = options;
  const boundary = await retentionBoundary(tx, now, timeZone, options.retentionDays);
  const rolledUp = await rollUpToNow(tx, timeZone, now);
  const purged = { visits: 0, clicks: 0, conversions: 0, engagements: 0, visitorKeys: 0 };
  for (const table of ["visits", "clicks", "conversions", "engagements"] as const) {
    purged[table] = await purgeEventsBefore(tx, table, boundary);
  }
  // The boundary is a local midnight: its local date is the first day kept.
  const firstKept = todayIn(timeZone, boundary);
  purged.visitorKeys = await forgetVisitorDaysBefore(tx, firstKept);
  await forgetFilterRollupsBefore(tx, firstKept);
  await forgetClickKeysBefore(tx, firstKept);
  await forgetHoursBefore(tx, boundary);
  await forgetDaysReadWithRawRowsBefore(tx, firstKept);
  await setPurgedThrough(tx, addDays(firstKept, -1));
  return { boundary: boundary.toISOString(), rolledUp, purged };
}

/** Deletes the rate-limit windows and login failures that no longer count for anything. */
export async function purgeOldCounters(
  q: Queryable,
  now: Date,
): Promise<{ rateLimitWindows: number; loginFailures: number }> {
  const before = new Date(now.getTime() - COUNTER_MAX_AGE_MS);
  return {
    rateLimitWindows: await purgeWindows(q, before),
    loginFailures: await purgeLoginFailures(q, before),
  };
}

/** Destroys the salts of the months that ended more than SALT_GRACE_DAYS ago; returns how many. */
export async function destroyOldSalts(q: Queryable, timeZone: string, now: Date): Promise<number> {
  // Months that ended more than SALT_GRACE_DAYS ago are exactly those before the month of (now - grace).
  return await destroySaltsBefore(q, monthIn(new Date(now.getTime() - SALT_GRACE_DAYS * DAY_MS), timeZone));
}

export interface RetentionJobOptions {
  /** Raw events are kept this many whole local days (RETENTION_DAYS). */
  retentionDays: number;
  /** Analytics time zone (ANALYTICS_TZ): roll-up days, the purge boundary and salt months are local. */
  timeZone: string;
  /** Whose cached salts to drop once salts are destroyed. */
  visitorKeys?: VisitorKeys;
  /** Delay before the first runs (lets the server start serving first); default one minute. */
  firstDelay?: number;
  /** Time between runs; default one hour. */
  every?: number;
  now?: () => Date;
}

/** The four retention jobs, hourly, the first runs a minute after start; each on its own lock. */
export function retentionJobs(db: Db, options: RetentionJobOptions): JobSpec<unknown>[] {
  const common = {
    db,
    every: options.every ?? HOUR_MS,
    firstDelay: options.firstDelay ?? 60_000,
    jitter: 0.1,
    now: options.now,
  };
  const rawEvents: JobSpec<RawEventsReport> = {
    ...common,
    name: "purge-raw-events",
    lock: ANALYTICS_LOCK,
    run: (tx, now) => purgeRawEvents(tx, options, now),
    describe: (report) => ({
      boundary: report.boundary,
      ...report.purged,
      rolledUpDays: report.rolledUp.days,
    }),
  };
  const sessions: JobSpec<number> = {
    ...common,
    name: "purge-sessions",
    lock: SESSIONS_LOCK,
    run: (tx, now) => deleteExpiredSessions(tx, now),
    describe: (sessions) => ({ sessions }),
  };
  const counters: JobSpec<{ rateLimitWindows: number; loginFailures: number }> = {
    ...common,
    name: "purge-counters",
    lock: COUNTERS_LOCK,
    run: (tx, now) => purgeOldCounters(tx, now),
  };
  const salts: JobSpec<number> = {
    ...common,
    name: "destroy-salts",
    lock: SALTS_LOCK,
    run: async (tx, now) => {
      const destroyed = await destroyOldSalts(tx, options.timeZone, now);
      if (destroyed) options.visitorKeys?.forget();
      return destroyed;
    },
    describe: (salts) => ({ salts }),
  };
  return [rawEvents, sessions, counters, salts];
}
