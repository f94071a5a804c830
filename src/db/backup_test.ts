import assert from "node:assert/strict";
import { join } from "node:path";
import { BackupError, backupFileName, backupPglite, restorePglite } from "./backup.ts";
import { openDb } from "./client.ts";
import { migrate } from "./migrate.ts";

const NOW = new Date("2026-11-22T05:45:01.234Z");

async function leadNames(dataDir: string): Promise<string[]> {
  const db = await openDb({ dataDir });
  try {
    return (await db.query<{ name: string }>("select name from leads order by id")).map((r) => r.name);
  } finally {
    await db.close();
  }
}

Deno.test("backup: file names are timestamped in UTC", () => {
  assert.equal(backupFileName(NOW), "backup-20261122-054501Z.tar.gz");
});

Deno.test({
  name: "backup: an embedded database survives a backup and a restore, which never clobber anything",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "backup_test_" });
    try {
      const dataDir = join(root, "data");
      const db = await openDb({ dataDir });
      await migrate(db);
      await db.query(
        "insert into leads (name, email, whatsapp, plan) values ('Ana Lima', 'ana@example.com', '+5511987654321', 'pro')",
      );
      await db.close();

      const file = await backupPglite(dataDir, join(root, "backups"), NOW);
      assert.equal(file, join(root, "backups", "backup-20261122-054501Z.tar.gz"));
      const gzip = (await Deno.readFile(file)).slice(0, 2);
      assert.deepEqual([...gzip], [0x1f, 0x8b]);
      await assert.rejects(() => backupPglite(dataDir, join(root, "backups"), NOW), BackupError);
      await assert.rejects(
        () => backupPglite(join(root, "nothing"), join(root, "backups"), NOW),
        BackupError,
      );

      // Into a fresh directory.
      const fresh = join(root, "restored");
      assert.equal(await restorePglite(file, fresh), undefined);
      assert.deepEqual(await leadNames(fresh), ["Ana Lima"]);

      // Over an existing database: refused, then done with force, the old one kept aside.
      const db2 = await openDb({ dataDir });
      await db2.query(
        "insert into leads (name, email, whatsapp, plan) values ('Bruno Reis', 'bruno@example.com', '+5511912345678', 'micro')",
      );
      await db2.close();
      await assert.rejects(() => restorePglite(file, dataDir), /refusing to replace it without --force/);
      assert.deepEqual(await leadNames(dataDir), ["Ana Lima", "Bruno Reis"]);
      const movedTo = await restorePglite(file, dataDir, { force: true, now: NOW });
      assert.equal(movedTo, `${dataDir}.before-restore-20261122-054501Z`);
      assert.deepEqual(await leadNames(dataDir), ["Ana Lima"]);
      assert.deepEqual(await leadNames(movedTo!), ["Ana Lima", "Bruno Reis"]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
