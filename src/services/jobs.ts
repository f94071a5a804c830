// The one way a background job runs: every `every` ms, never two runs of the same job at once (in a process:
// the next run is scheduled when the previous one ends; across processes: an advisory lock, for the jobs
// whose work must not be done twice), errors logged under the job's name without ever ending the process,
// and stop() for the shutdown, which waits for the run in progress.
import type { Db, Queryable } from "../db/client.ts";
import { tryJobLock } from "../db/job_locks.ts";
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
  /** What a run did, for one log line at info (nothing when undefined); runs are silent otherwise. */
  describe?(result: T): Record<string, unknown> | undefined;
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

/** Schedules the job: first run after `firstDelay`, then `every` (plus jitter) after each run ends. */
export function startJob<T>(spec: JobSpec<T>): Job<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<RunOutcome<T>> | undefined;
  let stopped = false;
  const random = spec.random ?? Math.random;
  const wait = (base: number) => base + Math.floor(random() * (spec.jitter ?? 0) * spec.every);

  const runNow = (): Promise<RunOutcome<T>> => {
    if (running) return Promise.resolve({ status: "busy" });
    if (stopped) return Promise.resolve({ status: "stopped" });
    const current = runJobOnce(spec, spec.now?.() ?? new Date())
      .then((outcome) => {
        const details = outcome.status === "done" ? spec.describe?.(outcome.result) : undefined;
        if (details) log.info(`job ${spec.name}`, { job: spec.name, ...details });
        return outcome;
      })
      .catch((error): RunOutcome<T> => {
        log.error(`job ${spec.name} failed`, {
          job: spec.name,
          error: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
        return { status: "failed", error };
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
      spec.close?.();
    },
  };
}

/** Starts every job; `stop()` stops them all and waits for the runs in progress. */
export function startJobs(specs: JobSpec<unknown>[]): { jobs: Job[]; stop(): Promise<void> } {
  const jobs = specs.map((spec) => startJob(spec));
  return { jobs, stop: async () => void await Promise.all(jobs.map((job) => job.stop())) };
}
