import assert from "node:assert/strict";
import { Hono } from "hono";
import { type Db, openDb } from "../db/client.ts";
import { migrate, readMigrations } from "../db/migrate.ts";
import type { AppEnv, AppRuntime } from "../server/env.ts";
import { appTest, testConfig } from "../../testing/app.ts";
import { withOwnSchema } from "../../testing/db.ts";
import { type HealthOptions, healthRoutes } from "./health.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

/** Just the probes over a given database handle. */
function probes(db: Db, options: HealthOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("deps", { config: testConfig(), db } as AppRuntime);
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
  assert.deepEqual(await res.json(), { status: "ready" });
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
  assert.deepEqual(await live.json(), { status: "ok" });
  await expectReady(t.app);
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
    const db = await openDb({});
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
