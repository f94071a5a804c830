import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { openDb } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { backupJob, runBackup } from "./backups.ts";
import { copyDataDir } from "../../testing/db_template.ts";

Deno.test("scheduled backups: BACKUP_DIR off by default, never inside DATA_DIR, never with PostgreSQL", () => {
  const base = { DATA_DIR: "/var/lib/app/data" };
  const config = loadConfig(base);
  assert.equal(config.BACKUP_DIR, undefined);
  assert.equal(config.BACKUP_KEEP, 7);
  assert.equal(config.BACKUP_EVERY_HOURS, 24);
  for (const inside of ["/var/lib/app/data", "/var/lib/app/data/backups", "/var/lib/app/data/../data/b"]) {
    assert.throws(
      () => loadConfig({ ...base, BACKUP_DIR: inside }),
      /BACKUP_DIR: .* is inside DATA_DIR \(\/var\/lib\/app\/data\)/,
      inside,
    );
  }
  assert.equal(
    loadConfig({ ...base, BACKUP_DIR: "/var/lib/app/data-backups" }).BACKUP_DIR,
    "/var/lib/app/data-backups",
  );
  assert.throws(
    () => loadConfig({ ...base, BACKUP_DIR: "/backups", DATABASE_URL: "postgres://a@b/c" }),
    /BACKUP_DIR: scheduled backups are for the embedded database/,
  );
  assert.throws(() => loadConfig({ ...base, BACKUP_KEEP: "0" }), /BACKUP_KEEP/);
  assert.throws(() => loadConfig({ ...base, BACKUP_EVERY_HOURS: "0.5" }), /BACKUP_EVERY_HOURS/);
});

Deno.test({
  name: "scheduled backups: each run writes a verified backup and keeps the newest BACKUP_KEEP; the first " +
    "run waits for the newest backup to be an interval old",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "backup_job_test_" });
    const dataDir = join(root, "data");
    const dir = join(root, "backups");
    await copyDataDir(dataDir); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
    const db = await openDb({ dataDir });
    try {
      await migrate(db);
      const config = loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_KEEP: "2" });
      const job = (await backupJob(db, config))!;
      assert.equal(job.firstDelay, 60_000, "no backup yet: a minute after start");
      assert.equal(job.every, 24 * 3_600_000);
      assert.equal(await backupJob(db, loadConfig({ DATA_DIR: dataDir })), null, "off without BACKUP_DIR");

      const reports = [];
      for (
        const [i, at] of ["2026-11-20T03:00:00Z", "2026-11-21T03:00:00Z", "2026-11-22T03:00:00Z"].entries()
      ) {
        await db.query(
          "insert into leads (name, email, whatsapp, plan) values ($1, 'a@example.com', '+5511987654321', 'pro')",
          [`Lead ${i}`],
        );
        reports.push(await runBackup(db, dir, 2, new Date(at)));
      }
      assert.deepEqual(reports.map((r) => r.counts.leads), [1, 2, 3]);
      assert.deepEqual(reports[2].deleted, ["backup-20261120-030000Z.tar.gz"]);
      assert.deepEqual(
        (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
        ["backup-20261121-030000Z.tar.gz", "backup-20261122-030000Z.tar.gz"],
      );
      assert.equal(
        job.describe!(reports[2])?.rows,
        "leads 3, visits 0, clicks 0, conversions 0, " +
          "lead_deliveries 0, meta_outbox 0, admins 0",
      );

      // A backup an hour old (by its mtime): the next one comes 23 hours after start.
      const delay = (await backupJob(db, config))!.firstDelay!;
      assert.ok(Math.abs(delay - 24 * 3_600_000) < 120_000, `first delay ${delay}`);
      await Deno.utime(
        join(dir, "backup-20261122-030000Z.tar.gz"),
        new Date(),
        new Date(Date.now() - 3_600_000),
      );
      await Deno.utime(
        join(dir, "backup-20261121-030000Z.tar.gz"),
        new Date(),
        new Date(Date.now() - 7_200_000),
      );
      const later = (await backupJob(db, config))!.firstDelay!;
      assert.ok(Math.abs(later - 23 * 3_600_000) < 120_000, `first delay ${later}`);
    } finally {
      await db.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
