// The retention job: keeps daily roll-ups, then forgets raw events, stale sessions, counters and salts.
import type { Db } from "../db/client.ts";
import { purgeLoginFailures } from "../db/login_failures.ts";
import { purgeWindows } from "../db/rate_limits.ts";
import { type EventTable, purgeEventsBefore, retentionBoundary, tryRetentionLock } from "../db/retention.ts";
import { forgetVisitorDaysBefore, setPurgedThrough } from "../db/rollups.ts";
import { destroySaltsBefore } from "../db/salts.ts";
import { deleteExpiredSessions } from "../db/sessions.ts";
import { log } from "../core/log.ts";
import { addDays, todayIn } from "../shared/analytics.ts";
import { type RollupReport, rollUpToNow } from "./rollups.ts";
import { forgetSalts, monthIn } from "./visitor_key.ts";

const DAY_MS = 24 * 3_600_000;
/** Salts live until this long after their month ends (ARCHITECTURE: "about 40 days"). */
export const SALT_GRACE_DAYS = 40;
/** Rate-limit windows and login failures older than this no longer count for anything (longest window: 15 min). */
export const COUNTER_MAX_AGE_MS = DAY_MS;

export interface RetentionOptions {
  /** Raw events are kept this many whole local days (RETENTION_DAYS). */
  retentionDays: number;
  /** Analytics time zone (ANALYTICS_TZ): roll-up days and the purge boundary are local. */
  timeZone: string;
  now: Date;
}

export interface RetentionReport {
  /** True when another instance held the lock, so this one did nothing. */
  skipped: boolean;
  /** Raw events before this instant (a local midnight) were rolled up and purged. */
  boundary?: string;
  /** What the roll-up job (run first, in the same transaction) added. */
  rolledUp: RollupReport;
  purged: Record<
    EventTable | "visitorKeys" | "sessions" | "rateLimitWindows" | "loginFailures" | "salts",
    number
  >;
}

/**
 * Runs the job once, in one transaction: the roll-up job first brings everything up to two minutes ago into
 * the roll-ups (so the days about to go are always rolled up), then the raw rows before the boundary go, with the
 * visitor bits of those days, and the purge watermark moves; a crash leaves either all or nothing. Only
 * the instance that gets the advisory lock works; the others return `skipped`.
 */
export async function runRetention(db: Db, options: RetentionOptions): Promise<RetentionReport> {
  const { now, timeZone } = options;
  const report: RetentionReport = {
    skipped: false,
    rolledUp: { through: null, days: 0, rankRows: 0, sourceRows: 0, channelRows: 0 },
    purged: {
      visits: 0,
      visitorKeys: 0,
      clicks: 0,
      conversions: 0,
      sessions: 0,
      rateLimitWindows: 0,
      loginFailures: 0,
      salts: 0,
    },
  };
  await db.transaction(async (tx) => {
    if (!await tryRetentionLock(tx)) {
      report.skipped = true;
      return;
    }
    const boundary = await retentionBoundary(tx, now, timeZone, options.retentionDays);
    report.boundary = boundary.toISOString();
    report.rolledUp = await rollUpToNow(tx, timeZone, now);
    for (const table of ["visits", "clicks", "conversions"] as const) {
      report.purged[table] = await purgeEventsBefore(tx, table, boundary);
    }
    // The boundary is a local midnight: its local date is the first day kept.
    const firstKept = todayIn(timeZone, boundary);
    report.purged.visitorKeys = await forgetVisitorDaysBefore(tx, firstKept);
    await setPurgedThrough(tx, addDays(firstKept, -1));
    report.purged.sessions = await deleteExpiredSessions(tx, now);
    const countersBefore = new Date(now.getTime() - COUNTER_MAX_AGE_MS);
    report.purged.rateLimitWindows = await purgeWindows(tx, countersBefore);
    report.purged.loginFailures = await purgeLoginFailures(tx, countersBefore);
    // Months that ended more than SALT_GRACE_DAYS ago are exactly those before the month of (now - grace).
    const keepFrom = monthIn(new Date(now.getTime() - SALT_GRACE_DAYS * DAY_MS), timeZone);
    report.purged.salts = await destroySaltsBefore(tx, keepFrom);
  });
  if (report.purged.salts) forgetSalts();
  return report;
}

export interface RetentionTimerOptions extends Omit<RetentionOptions, "now"> {
  /** Delay before the first run (lets the server start serving first); default one minute. */
  firstDelayMs?: number;
  /** Time between runs; default one hour. */
  intervalMs?: number;
  now?: () => Date;
}

/** Runs the job shortly after start and then every interval, until `stop()` (which waits for a run in progress). */
export function startRetention(db: Db, options: RetentionTimerOptions): { stop(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    running = runRetention(db, { ...options, now: options.now?.() ?? new Date() })
      .then((report) => {
        if (!report.skipped) {
          log.info("retention run", { rolledUpThrough: report.rolledUp.through, ...report.purged });
        }
      })
      .catch((error) => log.error("retention run failed", { error: String(error), stack: error?.stack }))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 3_600_000);
      });
  };
  timer = setTimeout(tick, options.firstDelayMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
