import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { tryJobLock } from "../db/job_locks.ts";
import { type LogLevel, setLogSink } from "../core/log.ts";
import { dbTest } from "../../testing/db.ts";
import { type JobSpec, runJobOnce, startJob } from "./jobs.ts";

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
