import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { tryJobLock } from "../db/job_locks.ts";
import { type LogLevel, setLogSink } from "../core/log.ts";
import { dbTest } from "../../testing/db.ts";
import { type JobSpec, runJobNow, runJobOnce, startJob } from "./jobs.ts";
import { type JobRunRecord, jobRuns, recordJobRun } from "../db/job_runs.ts";
import { jobStatuses } from "./system_health.ts";

/** A promise and the function that resolves it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => open = resolve);
  return { open, opened };
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(condition(), `timed out waiting for ${what}`);
}

function captureLogs() {
  const lines: Array<Record<string, unknown> & { level: LogLevel }> = [];
  const restore = setLogSink((level, line) => lines.push({ ...JSON.parse(line), level }));
  return { lines, restore };
}

// The helper's own scheduling needs no database; `db` is only used by jobs with a lock.
const NO_DB = {} as Db;

Deno.test("jobs: a second run while one is in progress is refused, never overlaps", async () => {
  let active = 0;
  let most = 0;
  let runs = 0;
  const release = gate();
  const job = startJob({
    name: "slow",
    db: NO_DB,
    every: 1,
    firstDelay: 0,
    run: async () => {
      runs++;
      most = Math.max(most, ++active);
      await release.opened;
      active--;
    },
  });
  try {
    await until(() => runs === 1, "the first run");
    // The next tick is only scheduled once this run ends; a run asked for meanwhile is refused.
    assert.deepEqual(await job.runNow(), { status: "busy" });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(runs, 1);
    release.open();
    await until(() => runs >= 3, "later runs");
  } finally {
    await job.stop();
  }
  assert.equal(most, 1);
});

Deno.test("jobs: a failing run is logged with the job's name and the next tick still runs", async () => {
  const { lines, restore } = captureLogs();
  let runs = 0;
  const job = startJob({
    name: "flaky",
    db: NO_DB,
    every: 5,
    firstDelay: 0,
    run: () => {
      runs++;
      if (runs === 1) return Promise.reject(new Error("database went away"));
      return Promise.resolve(runs);
    },
    describe: (n) => ({ run: n }),
  });
  try {
    await until(() => runs >= 2, "the run after the failure");
  } finally {
    await job.stop();
    restore();
  }
  const failure = lines.find((l) => l.msg === "job flaky failed");
  assert.ok(failure, JSON.stringify(lines));
  assert.equal(failure.level, "error");
  assert.equal(failure.job, "flaky");
  assert.equal(failure.error, "database went away");
  assert.match(String(failure.stack), /database went away/);
  assert.ok(lines.some((l) => l.msg === "job flaky" && l.run === 2 && l.level === "info"));
});

Deno.test("jobs: a manual run reports a failure instead of throwing", async () => {
  const { lines, restore } = captureLogs();
  const job = startJob({
    name: "once",
    db: NO_DB,
    every: 60_000,
    run: () => Promise.reject(new Error("boom")),
  });
  try {
    const outcome = await job.runNow();
    assert.equal(outcome.status, "failed");
    assert.equal(outcome.status === "failed" && (outcome.error as Error).message, "boom");
  } finally {
    await job.stop();
    restore();
  }
  assert.deepEqual(lines.map((l) => [l.msg, l.error]), [["job once failed", "boom"]]);
});

Deno.test("jobs: stop() waits for the run in progress, then no run starts and close() is called", async () => {
  let runs = 0;
  let finished = 0;
  let closed = 0;
  const release = gate();
  const job = startJob({
    name: "stoppable",
    db: NO_DB,
    every: 1,
    firstDelay: 0,
    run: async () => {
      runs++;
      await release.opened;
      finished++;
    },
    close: () => closed++,
  });
  await until(() => runs === 1, "the first run");
  let stopped = false;
  const stopping = job.stop().then(() => stopped = true);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(stopped, false, "stop() waits for the run in progress");
  assert.equal(closed, 0, "nothing is closed under a running job");
  release.open();
  await stopping;
  assert.deepEqual({ runs, finished, closed }, { runs: 1, finished: 1, closed: 1 });
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(runs, 1);
  assert.deepEqual(await job.runNow(), { status: "stopped" });
});

Deno.test("jobs: the first run waits firstDelay, later ones `every` plus their share of jitter", async () => {
  const delays: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  // Records the waits the job asks for, running each at once.
  globalThis.setTimeout = ((fn: () => void, ms: number) => {
    delays.push(ms);
    return realSetTimeout(fn, 0);
  }) as typeof setTimeout;
  let runs = 0;
  let job;
  try {
    job = startJob({
      name: "jittered",
      db: NO_DB,
      every: 1000,
      firstDelay: 50,
      jitter: 0.2,
      random: () => 0.5,
      run: () => Promise.resolve(++runs),
    });
    await new Promise((r) => realSetTimeout(r, 30));
  } finally {
    globalThis.setTimeout = realSetTimeout;
    await job?.stop();
  }
  assert.equal(delays[0], 50);
  assert.ok(delays.length >= 3);
  for (const delay of delays.slice(1, 3)) assert.equal(delay, 1100);
});

dbTest("jobs: a locked job is skipped while another process holds its lock", async (db, kind) => {
  const spec: JobSpec<string> = {
    name: "locked",
    db,
    every: 60_000,
    lock: 720_451_990,
    run: () => Promise.resolve("ran"),
  };
  assert.deepEqual(await runJobOnce(spec, new Date()), { status: "done", result: "ran" });
  if (kind === "pglite") return; // one connection, one process: nobody else can hold it
  let inside: unknown;
  await db.transaction(async (tx) => {
    assert.equal(await tryJobLock(tx, 720_451_990), true);
    inside = await runJobOnce(spec, new Date()); // another connection of the pool, like another process
  });
  assert.deepEqual(inside, { status: "locked" });
  assert.deepEqual(await runJobOnce(spec, new Date()), { status: "done", result: "ran" });
});

Deno.test("jobs: every run logs one line with what it did and how long, even when it did nothing, and is recorded", async () => {
  const { lines, restore } = captureLogs();
  const records: JobRunRecord[] = [];
  const job = startJob({
    name: "purge-x",
    db: NO_DB,
    every: 3_600_000,
    run: () => Promise.resolve({ purged: 0 }),
  }, { record: (r) => Promise.resolve(void records.push(r)) });
  try {
    assert.equal((await job.runNow()).status, "done");
    assert.equal((await job.runNow()).status, "done");
  } finally {
    await job.stop();
    restore();
  }
  const runs = lines.filter((l) => l.msg === "job purge-x");
  assert.equal(runs.length, 2);
  for (const line of runs) {
    assert.equal(line.level, "info");
    assert.equal(line.job, "purge-x");
    assert.equal(line.purged, 0);
    assert.equal(typeof line.durationMs, "number");
  }
  assert.deepEqual(
    records.map((r) => [r.name, r.everyMs, r.runs, r.failedRuns, r.status, r.result]),
    [["purge-x", 3_600_000, 1, 0, "done", { purged: 0 }], ["purge-x", 3_600_000, 1, 0, "done", {
      purged: 0,
    }]],
  );
});

Deno.test("jobs: a job run every few seconds is summed up per period, at once when it starts or stops failing", async () => {
  const { lines, restore } = captureLogs();
  const records: JobRunRecord[] = [];
  let t = Date.parse("2026-11-20T15:00:00Z");
  const results: Array<number | Error> = [1, 1, 1, 1, new Error("smtp down"), 0];
  const job = startJob({
    name: "deliver-x",
    db: NO_DB,
    every: 60_000, // no scheduled run during the test: only the six asked for
    summaryEvery: 1000,
    now: () => new Date(t += 400),
    run: () => {
      const next = results.shift()!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve({ delivered: next });
    },
  }, { record: (r) => Promise.resolve(void records.push(r)) });
  try {
    for (let i = 0; i < 6; i++) await job.runNow();
  } finally {
    await job.stop(); // records the quiet run still summed up
    restore();
  }
  // The clock moves 400 ms per run: the fourth run ends 1,200 ms after the first started (a summary); the
  // failure starts a record of its own, the success after it flushes it; stop() records the quiet last run.
  assert.deepEqual(
    records.map((r) => [r.runs, r.failedRuns, r.status, r.result, r.error, r.everyMs]),
    [
      [4, 0, "done", { delivered: 4 }, undefined, 1000],
      [1, 1, "failed", {}, "smtp down", 1000],
      [1, 0, "done", { delivered: 0 }, undefined, 1000],
    ],
  );
  const summaries = lines.filter((l) => l.msg === "job deliver-x summary");
  // The quiet summary (nothing delivered, nothing failed) is logged at debug, below the default level.
  assert.deepEqual(summaries.map((l) => [l.level, l.runs, l.failedRuns, l.delivered]), [
    ["info", 4, 0, 4],
    ["info", 1, 1, undefined],
  ]);
});

Deno.test("jobs: jobs:run's one run is logged and recorded like a scheduled one", async () => {
  const { lines, restore } = captureLogs();
  const records: JobRunRecord[] = [];
  try {
    const outcome = await runJobNow({
      name: "deliver-y",
      db: NO_DB,
      every: 2000,
      summaryEvery: 60_000,
      run: () => Promise.resolve({ delivered: 2 }),
    }, { record: (r) => Promise.resolve(void records.push(r)) });
    assert.deepEqual(outcome, { status: "done", result: { delivered: 2 } });
  } finally {
    restore();
  }
  assert.deepEqual(records.map((r) => [r.name, r.runs, r.result, r.everyMs]), [
    ["deliver-y", 1, { delivered: 2 }, 60_000],
  ]);
  assert.deepEqual(lines.map((l) => [l.msg, l.delivered]), [["job deliver-y", 2]]);
});

dbTest(
  "jobs: job_runs keeps each job's latest run, its last success and last failure; old ones are overdue",
  async (db) => {
    const at = (s: number) => new Date(Date.parse("2026-11-20T15:00:00Z") + s * 1000);
    const run = (s: number, failed: boolean) =>
      recordJobRun(db, {
        name: "rollups",
        everyMs: 300_000,
        startedAt: at(s),
        finishedAt: at(s + 1),
        runs: 1,
        failedRuns: failed ? 1 : 0,
        durationMs: 1000,
        status: failed ? "failed" : "done",
        result: failed ? {} : { days: s },
        error: failed ? "deadlock detected" : undefined,
      });
    await run(0, false);
    await run(300, true);
    await run(600, false);
    const [row] = await jobRuns(db);
    assert.deepEqual(row, {
      name: "rollups",
      everyMs: 300_000,
      startedAt: at(600).toISOString(),
      finishedAt: at(601).toISOString(),
      runs: 1,
      failedRuns: 0,
      durationMs: 1000,
      status: "done",
      result: { days: 600 },
      lastSuccessAt: at(601).toISOString(),
      lastFailureAt: at(301).toISOString(),
      lastError: "deadlock detected",
    });
    // Three intervals and a minute without a record: the job stopped running somewhere.
    assert.equal((await jobStatuses(db, at(601 + 960)))[0].overdue, false);
    assert.equal((await jobStatuses(db, at(601 + 961)))[0].overdue, true);
  },
);
