import assert from "node:assert/strict";
import { Hono } from "hono";
import { type Db, openDb } from "../db/client.ts";
import { migrate, readMigrations } from "../db/migrate.ts";
import type { AppEnv, AppRuntime } from "../server/env.ts";
import { appTest, testConfig } from "../../testing/app.ts";
import { withOwnSchema } from "../../testing/db.ts";
import { memoryTemplate } from "../../testing/db_template.ts";
import { type HealthOptions, healthRoutes } from "./health.ts";
import { recordJobRun } from "../db/job_runs.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

/** Just the probes over a given database handle. */
function probes(db: Db, options: HealthOptions = {}, version?: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("deps", { config: testConfig(), db, version } as AppRuntime);
    await next();
  });
  app.route("/", healthRoutes(options));
  return app;
}

async function expectReady(app: Hono<AppEnv>): Promise<void> {
  const res = await app.request("/readyz");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assert.equal(body.status, "ready");
  assert.equal(typeof body.jobs, "object");
}

async function expectUnavailable(app: Hono<AppEnv>, reason: string): Promise<void> {
  const res = await app.request("/readyz");
  assert.equal(res.status, 503);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(await res.json(), { status: "unavailable", reason });
}

/** A database handle whose every call fails (or never answers), like a server that went away. */
function brokenDb(query: () => Promise<never>): Db {
  return {
    kind: "postgres",
    query: query as Db["query"],
    exec: query,
    transaction: query,
    writeProblem: () => null,
    close: () => Promise.resolve(),
  };
}

appTest("health: /healthz answers 200 and /readyz 200 when every migration file is applied", async (t) => {
  const live = await t.request("/healthz");
  assert.equal(live.status, 200);
  assert.match(live.headers.get("content-type") ?? "", /application\/json/);
  assert.deepEqual(await live.json(), { status: "ok", version: "dev" });
  await expectReady(t.app);
});

appTest("health: /healthz names the build's version", async (t) => {
  const res = await probes(t.db, {}, "v1.0.0-3-gabc1234").request("/healthz");
  assert.deepEqual(await res.json(), { status: "ok", version: "v1.0.0-3-gabc1234" });
});

appTest(
  "health: /readyz answers 503 schema_newer when the database has a migration this build lacks",
  async (t) => {
    // Another instance of a newer build migrated the database under this one (a rolling upgrade).
    const shipped = (await readMigrations()).map((m) => m.name);
    await expectUnavailable(probes(t.db, { migrations: shipped.slice(0, -1) }), "schema_newer");
  },
);

appTest("health: /readyz shows each job's latest run, without its error text", async (t) => {
  const at = new Date(Date.now() - 1000);
  await recordJobRun(t.db, {
    name: "rollups",
    everyMs: 300_000,
    startedAt: at,
    finishedAt: at,
    runs: 1,
    failedRuns: 1,
    durationMs: 12,
    status: "failed",
    result: {},
    error: "connection to db.internal:5432 refused",
  });
  const res = await t.request("/readyz");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(body, {
    status: "ready",
    jobs: { rollups: { status: "failed", finishedAt: at.toISOString(), overdue: false } },
  });
});

appTest("health: /readyz answers 503 while a shipped migration is not applied", async (t) => {
  const shipped = (await readMigrations()).map((m) => m.name);
  await expectUnavailable(
    probes(t.db, { migrations: [...shipped, "99999_from_a_newer_build.sql"] }),
    "migrations_pending",
  );
  await expectReady(probes(t.db, { migrations: shipped }));
});

Deno.test("health: /readyz answers 503 when the database query rejects, /healthz stays 200", async () => {
  const app = probes(brokenDb(() => Promise.reject(new Error("connection refused"))));
  await expectUnavailable(app, "database_unreachable");
  assert.equal((await app.request("/healthz")).status, 200);
});

Deno.test("health: /readyz answers 503 after its timeout when the database never answers", async () => {
  const app = probes(brokenDb(() => new Promise<never>(() => {})), { timeoutMs: 50 });
  await expectUnavailable(app, "database_unreachable");
});

Deno.test({
  name: "health: /readyz answers 503 when PostgreSQL refuses connections",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await openDb({ databaseUrl: "postgres://app:app@127.0.0.1:1/app", max: 1 });
    try {
      await expectUnavailable(probes(db, { timeoutMs: 4000 }), "database_unreachable");
    } finally {
      await db.close();
    }
  },
});

Deno.test({
  name: "health: /readyz goes from 200 to 503 when the PGlite database is closed",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await openDb({ template: await memoryTemplate() }); // migrated (testing/db_template.ts)
    await migrate(db);
    const app = probes(db);
    await expectReady(app);
    await db.close();
    await expectUnavailable(app, "database_unreachable");
  },
});

Deno.test({
  name: "health: /readyz goes from 200 to 503 when the PostgreSQL pool is closed",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withOwnSchema("health", 2, async (db) => {
      const app = probes(db);
      await expectReady(app);
      await db.close();
      await expectUnavailable(app, "database_unreachable");
    }),
});
