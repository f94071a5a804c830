// The one way a background job runs: every `every` ms, never two runs of the same job at once (in a process:
// the next run is scheduled when the previous one ends; across processes: an advisory lock, for the jobs
// whose work must not be done twice), errors logged under the job's name without ever ending the process,
// and stop() for the shutdown, which waits for the run in progress. Each run leaves one JSON line (what it
// did, how long) and, given a recorder, its row in job_runs (the dashboard's "Saúde do sistema", /readyz);
// a job that runs every few seconds is summed up instead, once a minute.
import type { Db, Queryable } from "../db/client.ts";
import { tryJobLock } from "../db/job_locks.ts";
import type { JobRunRecord } from "../db/job_runs.ts";
import { log } from "../core/log.ts";

export interface JobSpec<T = unknown> {
  /** Names the job in the logs. */
  name: string;
  db: Db;
  /** Time from the end of one run to the start of the next, ms. */
  every: number;
  /** Delay before the first run, ms (default `every`): lets the server start serving first. */
  firstDelay?: number;
  /**
   * Up to this fraction of `every` is added at random to each wait after a run, so instances started
   * together drift apart instead of knocking on the database in step (default 0).
   */
  jitter?: number;
  /**
   * An advisory lock key (db/job_locks.ts): the run happens in one transaction holding it, and is skipped
   * when another process holds it. Jobs sharing a key never run at once. Without one, the job must be safe
   * to run in several processes side by side (the outboxes claim rows under leases).
   */
  lock?: number;
  /** One run: `q` is the locked transaction when `lock` is set, else the database. */
  run(q: Queryable, now: Date): Promise<T>;
  /**
   * What a run did (counts, never personal data), for its log line and its job_runs row; default: the
   * result itself when it is an object, else `{ result }`.
   */
  describe?(result: T): Record<string, unknown>;
  /**
   * Runs this often are summed up: one log line and one record per `summaryEvery` ms (and at once when a
   * run fails after successes or succeeds after failures), numeric details added up. For the delivery
   * loops, which run every two seconds. Unset: every run is logged and recorded.
   */
  summaryEvery?: number;
  /** Releases what the job holds (an SMTP transport) once stopped and its last run has ended. */
  close?(): void;
  now?: () => Date;
  random?: () => number;
}

/** How one run ended. */
export type RunOutcome<T> =
  | { status: "done"; result: T }
  /** Another process held the job's lock: nothing was done. */
  | { status: "locked" }
  /** A run of this job was already in progress in this process: refused, nothing was done. */
  | { status: "busy" }
  /** The job was stopped: nothing was done. */
  | { status: "stopped" }
  | { status: "failed"; error: unknown };

export interface Job<T = unknown> {
  readonly name: string;
  /** Runs the job now unless one is in progress ("busy") or it was stopped; errors are logged and returned. */
  runNow(): Promise<RunOutcome<T>>;
  /** No run starts after this; resolves once the run in progress (if any) has ended. */
  stop(): Promise<void>;
}

/** One run of the job under its lock; throws what the run throws. */
export async function runJobOnce<T>(spec: JobSpec<T>, now: Date): Promise<RunOutcome<T>> {
  if (spec.lock === undefined) return { status: "done", result: await spec.run(spec.db, now) };
  const key = spec.lock;
  return await spec.db.transaction(async (tx): Promise<RunOutcome<T>> => {
    if (!await tryJobLock(tx, key)) return { status: "locked" };
    return { status: "done", result: await spec.run(tx, now) };
  });
}

/** Where a job's runs are recorded (db/job_runs.ts in production); a failure to record is logged. */
export type RunRecorder = (record: JobRunRecord) => Promise<void>;

export interface JobOptions {
  record?: RunRecorder;
}

/** The details of a run for its log line and record. */
function detailsOf<T>(spec: JobSpec<T>, result: T): Record<string, unknown> {
  if (spec.describe) return spec.describe(result);
  if (result !== null && typeof result === "object" && !Array.isArray(result)) {
    return result as Record<string, unknown>;
  }
  return result === undefined ? {} : { result };
}

const errorText = (error: unknown) => error instanceof Error ? error.message : String(error);

/**
 * Logs and records the runs of one job: each run at once, or, with `summaryEvery`, summed up. Runs that did
 * nothing because another process held the lock are logged at debug and not recorded (the holder records).
 */
function runLog<T>(spec: JobSpec<T>, record: RunRecorder | undefined) {
  let pending: JobRunRecord | undefined;
  let maxMs = 0;

  const save = async (r: JobRunRecord) => {
    if (!record) return;
    await record(r).catch((error) =>
      log.warn(`job ${spec.name}: run not recorded`, { job: spec.name, error: errorText(error) })
    );
  };

  const flush = async () => {
    const r = pending;
    if (!r) return;
    pending = undefined;
    const busy = r.failedRuns > 0 || Object.values(r.result).some((v) => typeof v === "number" && v > 0);
    (busy ? log.info : log.debug)(`job ${spec.name} summary`, {
      job: spec.name,
      runs: r.runs,
      failedRuns: r.failedRuns,
      durationMs: Math.round(r.durationMs),
      maxMs: Math.round(maxMs),
      sinceMs: r.finishedAt.getTime() - r.startedAt.getTime(),
      ...r.result,
    });
    maxMs = 0;
    await save(r);
  };

  const add = async (startedAt: Date, durationMs: number, outcome: RunOutcome<T>) => {
    if (outcome.status === "locked") {
      log.debug(`job ${spec.name} skipped: another instance holds its lock`, { job: spec.name });
      return;
    }
    if (outcome.status !== "done" && outcome.status !== "failed") return;
    const failed = outcome.status === "failed";
    const details = failed ? {} : detailsOf(spec, outcome.result);
    const finishedAt = new Date(startedAt.getTime() + durationMs);
    const one: JobRunRecord = {
      name: spec.name,
      // How often a record is expected: a summed-up job's summary period.
      everyMs: spec.summaryEvery ?? spec.every,
      startedAt,
      finishedAt,
      runs: 1,
      failedRuns: failed ? 1 : 0,
      durationMs,
      status: failed ? "failed" : "done",
      result: details,
      error: failed ? errorText(outcome.error) : undefined,
    };
    if (spec.summaryEvery === undefined) {
      // The failure has its own error line (with the stack) already.
      if (!failed) {
        log.info(`job ${spec.name}`, { job: spec.name, durationMs: Math.round(durationMs), ...details });
      }
      await save(one);
      return;
    }
    if (pending && pending.status !== one.status) await flush();
    if (!pending) {
      pending = one;
    } else {
      pending.runs++;
      pending.failedRuns += one.failedRuns;
      pending.durationMs += durationMs;
      pending.finishedAt = finishedAt;
      if (one.error) pending.error = one.error;
      for (const [key, value] of Object.entries(details)) {
        const sum = pending.result[key];
        pending.result[key] = typeof value === "number" && typeof sum === "number" ? sum + value : value;
      }
    }
    maxMs = Math.max(maxMs, durationMs);
    if (finishedAt.getTime() - pending.startedAt.getTime() >= spec.summaryEvery) await flush();
  };

  return { add, flush };
}

/** One run now, outside any schedule (`deno task jobs:run`): logged and recorded like a scheduled one. */
export async function runJobNow<T>(spec: JobSpec<T>, options: JobOptions = {}): Promise<RunOutcome<T>> {
  // Recorded at once, with the interval the scheduled job records at (its row looks the same).
  const runs = runLog(
    { ...spec, every: spec.summaryEvery ?? spec.every, summaryEvery: undefined },
    options.record,
  );
  const startedAt = spec.now?.() ?? new Date();
  const began = performance.now();
  const outcome = await runJobOnce(spec, startedAt).catch((error): RunOutcome<T> => {
    log.error(`job ${spec.name} failed`, {
      job: spec.name,
      error: errorText(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return { status: "failed", error };
  });
  await runs.add(startedAt, performance.now() - began, outcome);
  return outcome;
}

/** Schedules the job: first run after `firstDelay`, then `every` (plus jitter) after each run ends. */
export function startJob<T>(spec: JobSpec<T>, options: JobOptions = {}): Job<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<RunOutcome<T>> | undefined;
  let stopped = false;
  const random = spec.random ?? Math.random;
  const wait = (base: number) => base + Math.floor(random() * (spec.jitter ?? 0) * spec.every);
  const runs = runLog(spec, options.record);

  const runNow = (): Promise<RunOutcome<T>> => {
    if (running) return Promise.resolve({ status: "busy" });
    if (stopped) return Promise.resolve({ status: "stopped" });
    const startedAt = spec.now?.() ?? new Date();
    const began = performance.now();
    const current = runJobOnce(spec, startedAt)
      .catch((error): RunOutcome<T> => {
        log.error(`job ${spec.name} failed`, {
          job: spec.name,
          error: errorText(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
        return { status: "failed", error };
      })
      .then(async (outcome) => {
        await runs.add(startedAt, performance.now() - began, outcome);
        return outcome;
      })
      .finally(() => {
        running = undefined;
      });
    running = current;
    return current;
  };

  const tick = async () => {
    timer = undefined;
    await runNow();
    if (!stopped) timer = setTimeout(tick, wait(spec.every));
  };
  timer = setTimeout(tick, spec.firstDelay ?? wait(spec.every));

  return {
    name: spec.name,
    runNow,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await runs.flush();
      spec.close?.();
    },
  };
}

/** Starts every job; `stop()` stops them all and waits for the runs in progress. */
export function startJobs(
  specs: JobSpec<unknown>[],
  options: JobOptions = {},
): { jobs: Job[]; stop(): Promise<void> } {
  const jobs = specs.map((spec) => startJob(spec, options));
  return { jobs, stop: async () => void await Promise.all(jobs.map((job) => job.stop())) };
}
