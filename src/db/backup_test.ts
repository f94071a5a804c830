import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BackupError,
  backupFileName,
  backupPglite,
  restorePglite,
  rotateBackups,
  verifyBackup,
  writeVerifiedBackup,
} from "./backup.ts";
import { openDb } from "./client.ts";
import { DataDirBusy, lockDataDir } from "./data_dir_lock.ts";
import { migrate } from "./migrate.ts";
import { withoutEntries } from "./pglite.ts";
import { copyDataDir } from "../../testing/db_template.ts";

const NOW = new Date("2026-11-22T05:45:01.234Z");

async function leadNames(dataDir: string): Promise<string[]> {
  const db = await openDb({ dataDir });
  try {
    return (await db.query<{ name: string }>("select name from leads order by id")).map((r) => r.name);
  } finally {
    await db.close();
  }
}

const names = async (dir: string) => (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("backup: file names are timestamped in UTC", () => {
  assert.equal(backupFileName(NOW), "backup-20261122-054501Z.tar.gz");
});

Deno.test("backup: rotation keeps the newest backups and touches nothing else", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rotate_test_" });
  try {
    for (const day of ["20261120", "20261121", "20261122", "20261123"]) {
      await Deno.writeTextFile(join(dir, `backup-${day}-030000Z.tar.gz`), "x");
    }
    await Deno.writeTextFile(join(dir, "notes.txt"), "mine");
    assert.deepEqual(await rotateBackups(dir, 2), [
      "backup-20261121-030000Z.tar.gz",
      "backup-20261120-030000Z.tar.gz",
    ]);
    assert.deepEqual(await names(dir), [
      "backup-20261122-030000Z.tar.gz",
      "backup-20261123-030000Z.tar.gz",
      "notes.txt",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "backup: verified backups and restores; broken backups are refused with DATA_DIR untouched and " +
    "nothing left behind",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "backup_test_" });
    try {
      const dataDir = join(root, "data");
      const backups = join(root, "backups");
      await copyDataDir(dataDir); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
      const db = await openDb({ dataDir });
      await migrate(db);
      await db.query(
        "insert into leads (name, email, whatsapp, plan) values ('Ana Lima', 'ana@example.com', '+5511987654321', 'pro')",
      );
      await db.close();

      // No server runs: the command opens DATA_DIR itself, under the lock. The backup is verified.
      const written = await backupPglite(dataDir, backups, NOW);
      assert.equal(written.path, join(backups, "backup-20261122-054501Z.tar.gz"));
      assert.equal(written.from, dataDir);
      assert.equal(written.counts.leads, 1);
      assert.equal(written.counts.visits, 0);
      assert.equal((await Deno.stat(written.path)).mode! & 0o777, 0o600);
      const file = await Deno.readFile(written.path);
      assert.deepEqual([...file.slice(0, 2)], [0x1f, 0x8b]);
      const tar = await gunzip(file);
      const text = new TextDecoder().decode(tar);
      assert.ok(text.includes("/PG_VERSION"));
      assert.ok(!text.includes("owner.lock"), "the lock file (and the server's token) stays out of backups");
      await assert.rejects(() => backupPglite(dataDir, backups, NOW), /already exists/);
      await assert.rejects(() => backupPglite(join(root, "nothing"), backups, NOW), BackupError);
      assert.deepEqual(await names(backups), ["backup-20261122-054501Z.tar.gz"]);

      // Another command holding DATA_DIR: refused (a server would be asked instead, main_datadir_test.ts).
      const held = await lockDataDir(dataDir, "db:migrate");
      await assert.rejects(() => backupPglite(dataDir, backups, new Date()), DataDirBusy);
      await assert.rejects(() => restorePglite(written.path, dataDir, { force: true }), DataDirBusy);
      held.release();

      // Into a fresh directory.
      const fresh = join(root, "restored");
      const restored = await restorePglite(written.path, fresh);
      assert.equal(restored.movedTo, undefined);
      assert.equal(restored.counts.leads, 1);
      assert.deepEqual(await leadNames(fresh), ["Ana Lima"]);
      assert.equal((await Deno.stat(fresh)).mode! & 0o777, 0o700);

      // Over an existing database: refused, then done with force, the old one kept aside.
      const db2 = await openDb({ dataDir });
      await db2.query(
        "insert into leads (name, email, whatsapp, plan) values ('Bruno Reis', 'bruno@example.com', '+5511912345678', 'micro')",
      );
      await db2.close();
      await assert.rejects(
        () => restorePglite(written.path, dataDir),
        /refusing to replace it without --force/,
      );
      assert.deepEqual(await leadNames(dataDir), ["Ana Lima", "Bruno Reis"]);
      const before = await names(root);

      // Broken backups: truncated, corrupted, or a database missing a file PostgreSQL needs (unpacks, then
      // fails to open: a restore that fails midway). Each refused, DATA_DIR untouched, nothing left behind.
      const broken = {
        truncated: file.slice(0, Math.floor(file.length / 2)),
        corrupted: file.map((byte, i) => i > 1000 && i % 97 === 0 ? byte ^ 0xff : byte),
        "missing pg_control": await gzip(withoutEntries(tar, (path) => path === "global/pg_control")),
        "not a database": await gzip(new TextEncoder().encode("hello".padEnd(2048, "\0"))),
      };
      for (const [what, bytes] of Object.entries(broken)) {
        const path = join(root, `${what}.tar.gz`);
        await Deno.writeFile(path, bytes);
        await assert.rejects(
          () => restorePglite(path, dataDir, { force: true, now: NOW }),
          (error: Error) =>
            error instanceof BackupError &&
            /the backup is broken .*DATA_DIR was not changed/.test(error.message),
          what,
        );
        assert.deepEqual(await names(root), [...before, `${what}.tar.gz`].sort(), what);
        await Deno.remove(path);
        assert.deepEqual(await leadNames(dataDir), ["Ana Lima", "Bruno Reis"], what);
        // ...and never written as a backup: verification deletes it.
        await assert.rejects(() => verifyBackup(bytes), /the backup is broken/, what);
        await assert.rejects(() => writeVerifiedBackup(bytes, backups, new Date()), BackupError, what);
        assert.deepEqual(await names(backups), ["backup-20261122-054501Z.tar.gz"], what);
      }

      const swapped = await restorePglite(written.path, dataDir, { force: true, now: NOW });
      assert.equal(swapped.movedTo, `${dataDir}.before-restore-20261122-054501Z`);
      assert.deepEqual(await leadNames(dataDir), ["Ana Lima"]);
      assert.deepEqual(await leadNames(swapped.movedTo!), ["Ana Lima", "Bruno Reis"]);
      assert.deepEqual(
        (await names(root)).filter((n) => n.includes("restoring")),
        [],
        "the temporary folder is gone",
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
