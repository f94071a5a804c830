import assert from "node:assert/strict";
import { openDb } from "./client.ts";
import {
  checkNumbering,
  checksum,
  migrate,
  MigrationChangedError,
  MigrationNumberingError,
  readMigrations,
  SchemaNewerError,
} from "./migrate.ts";
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

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const nextName = (names: string[], what: string) =>
  `${String(Number(names.at(-1)!.slice(0, 5)) + 1).padStart(5, "0")}_${what}.sql`;

dbTest("migrate: each applied migration is recorded with the SHA-256 of its file", async (db) => {
  const files = await readMigrations();
  const rows = await db.query<{ name: string; checksum: string }>(
    "select name, checksum from schema_migrations order by name",
  );
  const expected = await Promise.all(files.map(async (m) => ({
    name: m.name,
    checksum: await sha256Hex(await Deno.readFile(new URL(`../../migrations/${m.name}`, import.meta.url))),
  })));
  assert.deepEqual(rows, expected);
  // A checkout that turned LF into CRLF has not changed the migration.
  assert.equal(await checksum("a\r\nb\n"), await checksum("a\nb\n"));
});

dbTest(
  "migrate: rows recorded without a checksum (before 00012, or by an older build) get the file's",
  async (db) => {
    await db.query("update schema_migrations set checksum = null where name < '00012'");
    assert.deepEqual(await migrate(db), []);
    const empty = await db.query("select name from schema_migrations where checksum is null");
    assert.deepEqual(empty, []);
  },
);

dbTest(
  "migrate: an applied migration whose file changed is refused, naming it, and nothing is applied",
  async (db) => {
    const real = await readMigrations();
    const edited = real.map((m) =>
      m.name.startsWith("00005_") ? { ...m, sql: m.sql + "\n-- a later edit\n" } : m
    );
    const late = { name: nextName(real.map((m) => m.name), "late"), sql: "create table late (id int)" };
    await assert.rejects(
      migrate(db, [...edited, late]),
      (error: Error) =>
        error instanceof MigrationChangedError &&
        error.message.includes("00005_daily_rollups.sql was changed after it was applied") &&
        error.message.includes("Refusing to start"),
    );
    assert.deepEqual(await db.query("select 1 from pg_tables where tablename = 'late'"), []);
    assert.deepEqual(await db.query("select name from schema_migrations where name = $1", [late.name]), []);
    assert.deepEqual(await migrate(db), []); // the files as applied are fine
  },
);

dbTest("migrate: a database migrated by a newer build is refused, naming what it has", async (db) => {
  const real = await readMigrations();
  const newer = {
    name: nextName(real.map((m) => m.name), "from_a_newer_build"),
    sql: "create table newer (id int)",
  };
  try {
    assert.deepEqual(await migrate(db, [...real, newer]), [newer.name]); // the newer build upgrades
    await assert.rejects(
      migrate(db), // this build starts on it
      (error: Error) =>
        error instanceof SchemaNewerError &&
        error.message.includes(
          `migrated by a newer build (${newer.name} applied; this build ships up to ${real.at(-1)!.name})`,
        ),
    );
    // A migration applied under a name this build does not have at all (renamed, deleted) is refused too.
    await db.query("update schema_migrations set name = '00005_renamed.sql' where name = $1", [newer.name]);
    await assert.rejects(migrate(db), /00005_renamed\.sql applied to the database but not in this build/);
  } finally {
    await db.query("delete from schema_migrations where name in ($1, '00005_renamed.sql')", [newer.name]);
    await db.exec("drop table if exists newer");
  }
});

dbTest(
  "migrate: 00013 gives a database that ran an earlier text of 00011 the final leads index",
  async (db) => {
    // 00011's second text: the plain index from 00001 plus a second index on (submitted_at, last_channel).
    await db.exec(`drop index leads_submitted_at_idx;
    create index leads_submitted_at_idx on leads (submitted_at);
    create index leads_submitted_channel_idx on leads (submitted_at, last_channel);`);
    await db.query("delete from schema_migrations where name like '00013_%'");
    assert.deepEqual(await migrate(db), ["00013_leads_submitted_index.sql"]);
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = 'leads' and indexname like 'leads_submitted%'`,
    );
    assert.deepEqual(indexes.map((i) => i.indexname), ["leads_submitted_at_idx"]);
    assert.match(indexes[0].indexdef, /\(submitted_at\) INCLUDE \(last_channel\)/);
  },
);

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
