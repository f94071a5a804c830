import assert from "node:assert/strict";
import { openDb } from "./client.ts";
import { checkNumbering, migrate, MigrationNumberingError, readMigrations } from "./migrate.ts";
import { dbTest } from "../../testing/db.ts";

Deno.test("migrate: files are numbered and read in order", async () => {
  const names = (await readMigrations()).map((m) => m.name);
  assert.ok(names.length >= 1);
  assert.deepEqual(names, [...names].sort());
  assert.equal(names[0], "00001_init.sql");
});

Deno.test("migrate: the real folder is numbered without a gap (00002-00004 never existed)", async () => {
  checkNumbering((await readMigrations()).map((m) => m.name));
});

Deno.test("migrate: a gap or a repeated number is refused, naming the file and the number expected", async () => {
  const real = (await readMigrations()).map((m) => m.name);
  const last = Number(real.at(-1)!.slice(0, 5));
  const pad = (n: number) => String(n).padStart(5, "0");
  const gap = [...real, `${pad(last + 2)}_skips_one.sql`];
  assert.throws(
    () => checkNumbering(gap),
    (error: Error) =>
      error instanceof MigrationNumberingError &&
      error.message.includes(`${pad(last + 2)}_skips_one.sql follows a gap, ${pad(last + 1)} is missing`),
  );
  assert.throws(
    () => checkNumbering([...real, `${pad(last)}_twice.sql`].sort()),
    (error: Error) => error instanceof MigrationNumberingError && /repeats number/.test(error.message),
  );
  // The documented exception is only 00002-00004, right after 00001.
  assert.throws(() => checkNumbering(["00001_init.sql", "00006_x.sql"]), /00005 is missing/);
  checkNumbering([...real, `${pad(last + 1)}_next.sql`]);
});

dbTest("migrate: a folder with a gap applies nothing", async (db) => {
  const real = await readMigrations();
  const before = await db.query("select name from schema_migrations");
  await assert.rejects(
    migrate(db, [...real, { name: "00099_late.sql", sql: "create table late (id int)" }]),
    MigrationNumberingError,
  );
  assert.deepEqual(await db.query("select name from schema_migrations"), before);
  assert.deepEqual(await db.query("select 1 from pg_tables where tablename = 'late'"), []);
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
