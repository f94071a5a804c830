// Backups taken with `deno task db:backup` from a running server under load, each restored into a fresh
// folder and checked for every lead and visit acknowledged before the backup began. Used by
// src/main_datadir_test.ts (a few) and bench/live_backups.ts (20, printed).
import { join } from "node:path";
import { restorePglite } from "../src/db/backup.ts";
import { openDb } from "../src/db/client.ts";
import type { Load } from "./load.ts";

const BACKUP_CLI = new URL("../src/db/backup_cli.ts", import.meta.url).pathname;

export interface LiveBackup {
  file: string;
  /** The command's run time, ms, and what it printed. */
  ms: number;
  output: string;
  bytes: number;
  /** Leads (by idempotency key) and visits acknowledged before the command started. */
  leadsBefore: string[];
  visitsBefore: number;
  /** What the restored copy holds. */
  restoredLeads: number;
  restoredVisits: number;
  /** Acknowledged leads missing from the restored copy (must be none). */
  missing: string[];
}

/** Runs `db:backup` against `dataDir` (where a server runs); resolves with the file, or throws with its output. */
export async function runBackupCommand(
  dataDir: string,
  outDir: string,
): Promise<{ file: string; ms: number; output: string }> {
  const started = Date.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", BACKUP_CLI, "backup", "--out", outDir],
    env: { DATA_DIR: dataDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const file = output.match(/backup written: (\S+)/)?.[1];
  if (!out.success || !file) throw new Error(`db:backup exited ${out.code}: ${output}`);
  return { file, ms: Date.now() - started, output };
}

/** Takes `count` backups, one after the other, while `load` runs against the server on `dataDir`. */
export async function takeBackupsUnderLoad(
  dataDir: string,
  outDir: string,
  load: Load,
  count: number,
): Promise<Omit<LiveBackup, "restoredLeads" | "restoredVisits" | "missing">[]> {
  const taken = [];
  for (let i = 0; i < count; i++) {
    const started = Date.now();
    const done = load.answers.filter((a) => a.at + a.ms <= started);
    const leadsBefore = done.filter((a) => a.kind === "lead" && (a.status === 201 || a.status === 200))
      .map((a) => a.key!);
    const visitsBefore = done.filter((a) => a.kind === "visit" && a.status === 202).length;
    const { file, ms, output } = await runBackupCommand(dataDir, outDir);
    taken.push({ file, ms, output, bytes: (await Deno.stat(file)).size, leadsBefore, visitsBefore });
    // Distinct timestamped names: at most one backup a second.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_100 - (Date.now() - started))));
  }
  return taken;
}

/** Restores each backup into a fresh folder under `root` and checks what it holds. */
export async function restoreAndCheck(
  taken: Omit<LiveBackup, "restoredLeads" | "restoredVisits" | "missing">[],
  root: string,
): Promise<LiveBackup[]> {
  const results: LiveBackup[] = [];
  for (const [i, backup] of taken.entries()) {
    const dir = join(root, `restored-${i + 1}`);
    await restorePglite(backup.file, dir);
    const db = await openDb({ dataDir: dir });
    try {
      const keys = new Set(
        (await db.query<{ key: string }>("select idempotency_key as key from leads")).map((r) => r.key),
      );
      const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from visits");
      results.push({
        ...backup,
        restoredLeads: keys.size,
        restoredVisits: n,
        missing: backup.leadsBefore.filter((key) => !keys.has(key)),
      });
    } finally {
      await db.close();
    }
    await Deno.remove(dir, { recursive: true });
  }
  return results;
}
