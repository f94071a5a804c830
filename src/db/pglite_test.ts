import assert from "node:assert/strict";
import { join } from "node:path";
import { openDb } from "./client.ts";
import { appliedMigrations, migrate, readMigrations } from "./migrate.ts";
import { createPglite, hasDatabase, initdbInChild, PGLITE_SETTINGS } from "./pglite.ts";

const resourcesKept = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "pglite: the embedded database runs with PGLITE_SETTINGS (shared_buffers sized for a small site)",
  ...resourcesKept,
  fn: async () => {
    const pg = await createPglite();
    try {
      for (const [name, value] of Object.entries(PGLITE_SETTINGS)) {
        const { rows } = await pg.query<{ v: string }>("select current_setting($1) as v", [name]);
        assert.equal(rows[0].v, value, name);
      }
      // What durability rests on is left as PGlite sets it.
      const { rows } = await pg.query<{ v: string }>("select current_setting('synchronous_commit') as v");
      assert.equal(rows[0].v, "on");
    } finally {
      await pg.close();
    }
  },
});

Deno.test({
  name:
    "pglite: a new DATA_DIR is created and migrated by a child process, then opened here with the settings",
  ...resourcesKept,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "pglite_test_" });
    try {
      const dataDir = join(root, "nested", "data");
      await Deno.mkdir(dataDir, { recursive: true });
      assert.equal(await hasDatabase(dataDir), false);
      assert.equal(await initdbInChild(dataDir), true);
      assert.equal(await hasDatabase(dataDir), true);

      const db = await openDb({ dataDir });
      try {
        // The child applied every migration, so this process has none left to run.
        assert.deepEqual(await appliedMigrations(db), (await readMigrations()).map((m) => m.name));
        assert.deepEqual(await migrate(db), []);
        await db.exec("create table t (x int); insert into t values (42)");
        assert.deepEqual(await db.query("select x from t"), [{ x: 42 }]);
        assert.deepEqual(await db.query("select current_setting('shared_buffers') as v"), [{ v: "16MB" }]);
      } finally {
        await db.close();
      }
      // A later start finds the database and keeps what was stored.
      const again = await openDb({ dataDir });
      try {
        assert.deepEqual(await again.query("select x from t"), [{ x: 42 }]);
      } finally {
        await again.close();
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "pglite: openDb on an empty DATA_DIR creates the database (through the child) and stores data",
  ...resourcesKept,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "pglite_test_" });
    try {
      const dataDir = join(root, "data"); // missing: openDb creates it
      const db = await openDb({ dataDir });
      try {
        assert.equal(await hasDatabase(dataDir), true);
        assert.deepEqual(await db.query("select 1 as one"), [{ one: 1 }]);
      } finally {
        await db.close();
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "pglite: a child that cannot create the database fails with what it printed, nothing is left open",
  ...resourcesKept,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "pglite_test_" });
    try {
      const file = join(root, "not-a-directory");
      await Deno.writeTextFile(file, "x");
      await assert.rejects(() => initdbInChild(join(file, "data")), /initdb failed \(exit \d+\): .+/s);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
