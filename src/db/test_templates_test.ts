// The migrated databases tests start from (testing/db_template.ts): keyed by the migrations, so a changed
// or added migration never reuses an old template, and each copy is a database of its own, fully migrated.
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDb } from "./client.ts";
import { migrate, readMigrations } from "./migrate.ts";
import { copyDataDir, keyOf, memoryTemplate, templateKey } from "../../testing/db_template.ts";
import { dbTest, emptyDb, ownTables } from "../../testing/db.ts";

Deno.test("test templates: the key changes with any migration's text or name, a new one, the code or PGlite", async () => {
  const migrations = await readMigrations();
  const key = await keyOf(migrations, "code", "pglite@1");
  assert.equal(await keyOf(migrations, "code", "pglite@1"), key, "the same inputs, the same key");
  const last = migrations.at(-1)!;
  const edited = [...migrations.slice(0, -1), { ...last, sql: last.sql + "\n-- changed" }];
  const renamed = [...migrations.slice(0, -1), { ...last, name: last.name.replace(/^\d+/, "99999") }];
  const added = [...migrations, { name: "99999_more.sql", sql: "create table more (id int);" }];
  const others = [
    await keyOf(edited, "code", "pglite@1"),
    await keyOf(renamed, "code", "pglite@1"),
    await keyOf(added, "code", "pglite@1"),
    await keyOf(migrations, "other code", "pglite@1"),
    await keyOf(migrations, "code", "pglite@2"),
  ];
  assert.equal(new Set([key, ...others]).size, 6, "every change gives a new key");
  assert.equal(await templateKey(), await templateKey());
});

Deno.test({
  name:
    "test templates: a database loaded from the memory template has every migration and no row of another's",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const first = await openDb({ template: await memoryTemplate() });
    const second = await openDb({ template: await memoryTemplate() });
    try {
      assert.deepEqual(await migrate(first), [], "nothing left to apply");
      const names = (await first.query<{ name: string }>("select name from schema_migrations order by name"))
        .map((r) => r.name);
      assert.deepEqual(names, (await readMigrations()).map((m) => m.name));
      await first.query(
        "insert into leads (name, email, whatsapp, plan) values ('A', 'a@x.com', '+5511987654321', 'pro')",
      );
      assert.equal((await first.query("select id from leads")).length, 1);
      assert.equal((await second.query("select id from leads")).length, 0, "each load is its own database");
    } finally {
      await first.close();
      await second.close();
    }
  },
});

Deno.test({
  name: "test templates: a copied DATA_DIR opens migrated, private (0700 folders, 0600 files), its own",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "template_copy_" });
    try {
      const dataDir = join(root, "data");
      await copyDataDir(dataDir);
      assert.equal((await Deno.stat(dataDir)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(join(dataDir, "PG_VERSION"))).mode! & 0o777, 0o600);
      const db = await openDb({ dataDir });
      try {
        assert.deepEqual(await migrate(db), [], "nothing left to apply");
        await db.query(
          "insert into leads (name, email, whatsapp, plan) values ('A', 'a@x.com', '+5511987654321', 'pro')",
        );
      } finally {
        await db.close();
      }
      const other = join(root, "other");
      await copyDataDir(other);
      const fresh = await openDb({ dataDir: other });
      try {
        assert.equal((await fresh.query("select id from leads")).length, 0, "the template is not written");
      } finally {
        await fresh.close();
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

// emptyDb (testing/db.ts) resets only what a test changed; what the next test sees must be the same as if
// every table had been truncated and every identity restarted.
dbTest(
  "test databases: the next test finds every table empty and every identity at its start",
  async (db) => {
    const lead = async () =>
      (await db.query<{ id: string }>(
        `insert into leads (name, email, whatsapp, plan) values ('Ana', 'ana@example.com', '+5511999999999', 'pro')
       returning id::text as id`,
      ))[0].id;
    const first = await lead();
    await db.query(
      `insert into lead_deliveries (lead_id, destination, event_id, next_attempt_at, created_at, retry_since)
     values ($1, 'webhook', 'e1', now(), now(), now())`,
      [first],
    );
    // A sequence that moved with no row left: a rolled-back insert, and a deleted row.
    await db.transaction(async (tx) => {
      await tx.query(`insert into visits (visitor_key, source) values ('v', 'direto')`);
      throw new Error("roll back");
    }).catch(() => {});
    const again = await emptyDb(db.kind);
    assert.equal(again, db);
    const tables = await ownTables(db);
    const rows = await db.query<{ n: number }>(
      tables.map((t) => `select count(*)::int as n from ${t}`).join(" union all "),
    );
    assert.deepEqual(rows.map((r) => r.n), tables.map(() => 0), "every table empty");
    assert.equal(await lead(), "1", "the leads' identity restarted after rows");
    await db.query(`insert into visits (visitor_key, source) values ('v', 'direto')`);
    assert.deepEqual(
      await db.query(`select id::text from visits`),
      [{ id: "1" }],
      "the visits' identity restarted after a rolled-back insert",
    );
  },
);
