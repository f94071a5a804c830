// Issue 20: the embedded database's files were created 0666 (lead e-mails readable in the WAL by any local
// user; postgresql.conf and pg_control writable). DATA_DIR is now 0700 with files 0600, and backups 0600.
// Issue 34: the files PostgreSQL writes anew at every start (pg_internal.init) came back 0644 and were
// repaired at almost every restart; PGlite now creates every file private (pglite.ts).
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDb } from "./client.ts";
import { migrate } from "./migrate.ts";
import { makePrivate } from "./private_dir.ts";
import { backupPglite, restorePglite } from "./backup.ts";

/** Every mode under `dir` (itself included), as "octal": count. */
async function modes(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const add = async (path: string) => {
    const info = await Deno.lstat(path);
    const key = `${info.isDirectory ? "dir" : "file"} ${(info.mode! & 0o777).toString(8)}`;
    out[key] = (out[key] ?? 0) + 1;
    if (info.isDirectory) { for await (const e of Deno.readDir(path)) await add(join(path, e.name)); }
  };
  await add(dir);
  return out;
}

const onlyPrivate = (m: Record<string, number>) =>
  Object.keys(m).every((k) => k === "dir 700" || k === "file 600");

Deno.test({
  name: "DATA_DIR: a fresh one is 0700 with 0600 files, a loose one is repaired, backups are 0600",
  ignore: Deno.build.os === "windows",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "private_" });
    try {
      const dataDir = join(root, "data");
      const db = await openDb({ dataDir });
      await migrate(db);
      await db.exec(
        "insert into leads (name, email, whatsapp, plan) values ('Maria', 'maria@example.com', '+5511987654321', 'pro')",
      );
      await db.close();
      const created = await modes(dataDir);
      console.log("fresh DATA_DIR as PGlite leaves it:", JSON.stringify(created));
      assert.equal((await Deno.stat(dataDir)).mode! & 0o777, 0o700, "created 0700");
      assert.ok(onlyPrivate(created), JSON.stringify(created));
      assert.deepEqual(
        await makePrivate(dataDir),
        { dirs: 0, files: 0 },
        "nothing to repair after a first start",
      );

      // A restart rewrites the relation cache files (pg_internal.init): still private, nothing to repair.
      const reopened = await openDb({ dataDir });
      await reopened.query("select count(*) from leads");
      await reopened.close();
      assert.deepEqual(
        await makePrivate(dataDir),
        { dirs: 0, files: 0 },
        "nothing to repair after a restart",
      );

      // An existing directory left world-writable (as before this fix) is repaired.
      await Deno.chmod(dataDir, 0o777);
      await Deno.chmod(join(dataDir, "postgresql.conf"), 0o666);
      await Deno.chmod(join(dataDir, "global"), 0o755);
      const repaired = await makePrivate(dataDir);
      console.log("repaired:", JSON.stringify(repaired), JSON.stringify(await modes(dataDir)));
      assert.deepEqual(repaired, { dirs: 2, files: 1 });
      assert.ok(onlyPrivate(await modes(dataDir)));
      assert.deepEqual(await makePrivate(dataDir), { dirs: 0, files: 0 }, "nothing left to change");

      const backups = join(root, "backups");
      const { path: file } = await backupPglite(dataDir, backups);
      const backupModes = await modes(backups);
      console.log("backups:", JSON.stringify(backupModes));
      assert.ok(onlyPrivate(backupModes), JSON.stringify(backupModes));
      const restored = join(root, "restored");
      await restorePglite(file, restored);
      assert.ok(onlyPrivate(await modes(restored)), JSON.stringify(await modes(restored)));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
