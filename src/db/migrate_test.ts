import assert from "node:assert/strict";
import { openDb } from "./client.ts";
import { migrate, readMigrations } from "./migrate.ts";
import { dbTest } from "../../testing/db.ts";

Deno.test("migrate: files are numbered and read in order", async () => {
  const names = (await readMigrations()).map((m) => m.name);
  assert.ok(names.length >= 1);
  assert.deepEqual(names, [...names].sort());
  assert.equal(names[0], "00001_init.sql");
});

dbTest("migrate: a second run applies nothing", async (db) => {
  assert.deepEqual(await migrate(db), []);
  const rows = await db.query<{ name: string }>("select name from schema_migrations order by name");
  assert.deepEqual(rows.map((r) => r.name), (await readMigrations()).map((m) => m.name));
});

dbTest("db: a failing transaction leaves nothing behind", async (db) => {
  await assert.rejects(db.transaction(async (tx) => {
    await tx.query("insert into admins (email, password_hash) values ($1, $2)", ["a@b.co", "x"]);
    throw new Error("boom");
  }));
  assert.deepEqual(await db.query("select * from admins"), []);
  await db.transaction((tx) =>
    tx.query("insert into admins (email, password_hash) values ($1, $2)", ["a@b.co", "x"])
  );
  const rows = await db.query<{ id: number; email: string }>("select id, email from admins");
  assert.equal(rows.length, 1);
  assert.equal(typeof rows[0].id, "number");
});

Deno.test({
  name: "pglite: data written before a restart is there after it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const dataDir = `${dir}/nested/data`; // parents are created
    try {
      const first = await openDb({ dataDir });
      await migrate(first);
      await first.query(
        "insert into leads (name, email, whatsapp, plan) values ($1, $2, $3, $4)",
        ["Ana", "ana@example.com", "+55 11 99999-0000", "pro"],
      );
      await first.close();
      const second = await openDb({ dataDir });
      assert.deepEqual(await migrate(second), []);
      const rows = await second.query<{ name: string }>("select name from leads");
      assert.deepEqual(rows.map((r) => r.name), ["Ana"]);
      await second.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const url = Deno.env.get("TEST_DATABASE_URL");
Deno.test({
  name: "postgres: two processes migrating at once apply each migration once",
  ignore: !url,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const schema = `test_race_${crypto.randomUUID().slice(0, 8)}`;
    const admin = await openDb({ databaseUrl: url, max: 1 });
    await admin.exec(`create schema ${schema}`);
    try {
      const a = await openDb({ databaseUrl: url, schema, max: 1 });
      const b = await openDb({ databaseUrl: url, schema, max: 1 });
      const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
      const all = (await readMigrations()).map((m) => m.name);
      assert.deepEqual([...ra, ...rb].sort(), all); // each applied exactly once, by one of them
      const rows = await a.query<{ n: number }>("select count(*)::int as n from schema_migrations");
      assert.equal(rows[0].n, all.length);
      await a.close();
      await b.close();
    } finally {
      await admin.exec(`drop schema ${schema} cascade`);
      await admin.close();
    }
  },
});
