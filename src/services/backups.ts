// Scheduled backups of the embedded database (off unless BACKUP_DIR is set): every BACKUP_EVERY_HOURS the
// server dumps its own database (the only consistent copy, db/backup.ts), writes it to BACKUP_DIR verified
// (opened and counted before it gets its name), and keeps the newest BACKUP_KEEP. The first run comes when
// the newest backup already in BACKUP_DIR is an interval old (a minute after start at the earliest), so
// restarts neither skip nor multiply backups. BACKUP_DIR is never inside DATA_DIR (config.ts refuses it):
// each backup would otherwise contain all the earlier ones.
import { join } from "node:path";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { describeCounts, rotateBackups, writeVerifiedBackup, type WrittenBackup } from "../db/backup.ts";
import type { JobSpec } from "./jobs.ts";

export interface BackupReport extends WrittenBackup {
  deleted: string[];
  ms: number;
}

const HOUR_MS = 3_600_000;
const FIRST_RUN_MIN_MS = 60_000;

/** Age of the newest `backup-*.tar.gz` in `dir` at `now`, ms; Infinity when there is none. */
async function newestAge(dir: string, now: number): Promise<number> {
  let newest = -Infinity;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!/^backup-.*\.tar\.gz$/.test(entry.name)) continue;
      const mtime = (await Deno.stat(join(dir, entry.name))).mtime?.getTime() ?? -Infinity;
      newest = Math.max(newest, mtime);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return now - newest;
}

/** One scheduled backup: dump, write verified, rotate. */
export async function runBackup(
  db: Db,
  dir: string,
  keep: number,
  now = new Date(),
): Promise<BackupReport> {
  if (!db.dumpDataDir) throw new Error("scheduled backups need the embedded database");
  const started = performance.now();
  // Verified in a child process: its memory and CPU stay out of the process serving the site.
  const written = await writeVerifiedBackup(await db.dumpDataDir(), dir, now, { verifyInChild: true });
  const deleted = await rotateBackups(dir, keep);
  return { ...written, deleted, ms: Math.round(performance.now() - started) };
}

/** The backup job when BACKUP_DIR is set and the database is embedded, else null. */
export async function backupJob(db: Db, config: Config): Promise<JobSpec<BackupReport> | null> {
  const dir = config.BACKUP_DIR;
  if (!dir || db.kind !== "pglite") return null;
  const every = config.BACKUP_EVERY_HOURS * HOUR_MS;
  const age = await newestAge(dir, Date.now());
  return {
    name: "backup",
    db,
    every,
    firstDelay: Math.max(FIRST_RUN_MIN_MS, Math.min(every, every - age)),
    run: (_q, now) => runBackup(db, dir, config.BACKUP_KEEP, now),
    describe: (r) => ({
      path: r.path,
      bytes: r.bytes,
      rows: describeCounts(r.counts),
      deleted: r.deleted.length,
      ms: r.ms,
    }),
  };
}
