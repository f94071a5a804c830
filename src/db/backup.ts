// Backups of the embedded (PGlite) database: a gzip'd tarball of its data directory. PostgreSQL deployments
// use pg_dump/pg_restore instead (README).
//
// A copy of the folder's files taken by another process while the server writes is torn: it restored 0 of 2
// times. Only the process that has the database open can take a consistent one (PGlite's dumpDataDir,
// pglite.ts's dumpPglite), so `db:backup` asks the running server for it (server/backup_endpoint.ts) and
// opens the folder itself, under the DATA_DIR lock, only when no server runs. Every backup is then opened in
// a temporary in-memory PGlite and its main tables counted before it gets its final name; a restore is
// built and opened in a temporary folder first and swapped in only when it opens, so a broken backup
// never leaves a half-restored DATA_DIR.
import { runDenoChild } from "./deno_child.ts";
import { dirname, join, resolve } from "node:path";
import { DataDirBusy, type DataDirLock, LOCK_FILE, lockDataDir, readHolder } from "./data_dir_lock.ts";
import { makePrivate } from "./private_dir.ts";
import { createPglite, dumpPglite, hasDatabase, unpackBackup } from "./pglite.ts";

export class BackupError extends Error {}

/** The tables whose rows a verification counts; `leads` must exist. */
export const COUNTED_TABLES = [
  "leads",
  "visits",
  "clicks",
  "conversions",
  "lead_deliveries",
  "meta_outbox",
  "admins",
] as const;

export type Counts = Record<string, number>;

/** `backup-20261122-054501Z.tar.gz`: sorts by time, safe in every file system. */
export function backupFileName(now: Date): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "").replace("T", "-");
  return `backup-${stamp}.tar.gz`;
}

const BACKUP_NAME = /^backup-\d{8}-\d{6}Z\.tar\.gz$/;

/** "leads 12, visits 3400, …" */
export function describeCounts(counts: Counts): string {
  return Object.entries(counts).map(([table, n]) => `${table} ${n}`).join(", ");
}

async function countRows(query: (sql: string) => Promise<{ rows: unknown[] }>): Promise<Counts> {
  const counts: Counts = {};
  for (const table of COUNTED_TABLES) {
    const [{ present }] = (await query(`select to_regclass('public.${table}') is not null as present`))
      .rows as { present: boolean }[];
    if (!present) {
      if (table === "leads") throw new Error("it has no leads table: not a database of this app");
      continue;
    }
    const [{ n }] = (await query(`select count(*)::int as n from ${table}`)).rows as { n: number }[];
    counts[table] = n;
  }
  return counts;
}

const reason = (error: unknown) => error instanceof Error ? error.message : String(error);

/**
 * Opens a backup in a temporary in-memory PGlite and counts the rows of its main tables; throws BackupError
 * when it does not open (truncated, corrupted, not a database of this app).
 */
export async function verifyBackup(bytes: Uint8Array<ArrayBuffer>): Promise<Counts> {
  let pg;
  try {
    pg = await createPglite({ loadDataDir: await unpackBackup(bytes) });
    return await countRows((sql) => pg!.query(sql));
  } catch (error) {
    throw new BackupError(`the backup is broken: ${reason(error)}`);
  } finally {
    await pg?.close().catch(() => {});
  }
}

/** How long the verification of one backup may take in a child process. */
const VERIFY_CHILD_LIMIT_MS = 180_000;

/**
 * Verifies the backup `path` in a child Deno process (verify_child.ts) when one can be run, else here
 * (a compiled executable, or no permission to run Deno's own executable). Throws BackupError when it does
 * not open.
 */
export async function verifyBackupFile(path: string, options: { inChild?: boolean } = {}): Promise<Counts> {
  const out = options.inChild
    ? await runDenoChild(
      new URL("./verify_child.ts", import.meta.url),
      ["--allow-read", "--allow-env"],
      [path],
      VERIFY_CHILD_LIMIT_MS,
    )
    : null;
  if (!out) return await verifyBackup(await Deno.readFile(path));
  if (out.signal === "SIGKILL") {
    throw new BackupError(`the backup could not be verified within ${VERIFY_CHILD_LIMIT_MS / 1000} s`);
  }
  const printed = new TextDecoder().decode(out.stderr).trim();
  if (!out.success) throw new BackupError(printed.slice(-800) || `the verification exited ${out.code}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** How long `db:backup` waits for the running server's dump. */
const SERVER_DUMP_LIMIT_MS = 300_000;

/** Asks the server that holds DATA_DIR for a dump through its loopback endpoint (server/backup_endpoint.ts). */
async function dumpFromServer(port: number, token: string): Promise<Uint8Array<ArrayBuffer>> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/backup`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(SERVER_DUMP_LIMIT_MS),
    });
  } catch (error) {
    throw new BackupError(`the running server did not give a backup (127.0.0.1:${port}): ${reason(error)}`);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    throw new BackupError(`the running server refused the backup: ${res.status} ${text}`.trim());
  }
  return new Uint8Array(await res.arrayBuffer());
}

/** Takes a dump of DATA_DIR: from the server that holds it, else by opening it under the lock. */
async function dumpDataDir(dataDir: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; from: string }> {
  if (!await hasDatabase(dataDir)) throw new BackupError(`no database in ${dataDir}`);
  let lock: DataDirLock;
  try {
    lock = await lockDataDir(dataDir, "db:backup");
  } catch (error) {
    if (!(error instanceof DataDirBusy)) throw error;
    const holder = error.holder ?? await readHolder(dataDir);
    if (holder?.role !== "server") throw error;
    if (!holder.backupPort || !holder.backupToken) {
      throw new BackupError(
        `the server (PID ${holder.pid}) holds DATA_DIR but does not take backups yet: it is still starting ` +
          "(or is an older version); try again in a moment",
      );
    }
    return {
      bytes: await dumpFromServer(holder.backupPort, holder.backupToken),
      from: `the running server (PID ${holder.pid})`,
    };
  }
  try {
    const pg = await createPglite({ dataDir });
    try {
      return { bytes: await dumpPglite(pg), from: dataDir };
    } finally {
      await pg.close();
    }
  } finally {
    lock.release();
  }
}

export interface WrittenBackup {
  path: string;
  bytes: number;
  counts: Counts;
}

/**
 * Writes `dump` to a new timestamped .tar.gz in `outDir` (0600, never overwriting), verified: it is written
 * under a temporary name, read back and opened, and renamed only when it opens; otherwise it is deleted and
 * BackupError says why.
 */
export async function writeVerifiedBackup(
  dump: Uint8Array<ArrayBuffer>,
  outDir: string,
  now = new Date(),
  options: { verifyInChild?: boolean } = {},
): Promise<WrittenBackup> {
  await Deno.mkdir(outDir, { recursive: true, mode: 0o700 });
  const path = join(outDir, backupFileName(now));
  if (await Deno.stat(path).then(() => true, () => false)) {
    throw new BackupError(`${path} already exists; not overwriting it`);
  }
  const partial = join(outDir, `.${backupFileName(now)}.partial-${crypto.randomUUID().slice(0, 8)}`);
  try {
    // A backup holds every lead: readable by the server's user only.
    await Deno.writeFile(partial, dump, { createNew: true, mode: 0o600 });
    await Deno.chmod(partial, 0o600);
    const counts = await verifyBackupFile(partial, { inChild: options.verifyInChild });
    if (await Deno.stat(path).then(() => true, () => false)) {
      throw new BackupError(`${path} already exists; not overwriting it`);
    }
    await Deno.rename(partial, path);
    return { path, bytes: dump.length, counts };
  } catch (error) {
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
}

/**
 * `db:backup`: a verified backup of the PGlite database in `dataDir` into `outDir`, taken by the running
 * server when there is one. Refuses while another command holds DATA_DIR.
 */
export async function backupPglite(
  dataDir: string,
  outDir: string,
  now = new Date(),
): Promise<WrittenBackup & { from: string }> {
  const { bytes, from } = await dumpDataDir(dataDir);
  return { ...await writeVerifiedBackup(bytes, outDir, now), from };
}

/** Keeps the newest `keep` backups (by their timestamped names) in `dir`; returns the names deleted. */
export async function rotateBackups(dir: string, keep: number): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && BACKUP_NAME.test(entry.name)) names.push(entry.name);
  }
  const old = names.sort().reverse().slice(keep);
  for (const name of old) await Deno.remove(join(dir, name));
  return old;
}

export interface RestoreOptions {
  /** Replace an existing database; it is moved aside to `<dataDir>.before-restore-<time>`, not deleted. */
  force?: boolean;
  now?: Date;
}

export interface Restored {
  /** Where the previous database was moved, if there was one. */
  movedTo?: string;
  counts: Counts;
}

/** Entries of `dir` but the lock file; none when it is missing. */
async function entriesOf(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) if (entry.name !== LOCK_FILE) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

/**
 * Restores a backup into `dataDir`, which must hold no database unless `force`. The backup is unpacked into
 * a temporary folder beside `dataDir` and opened there (recovery run, main tables counted); only then is it
 * renamed into place, the previous database renamed aside first. A backup that does not open leaves
 * `dataDir` untouched and nothing else behind, and BackupError says the backup is broken. Refuses while
 * another process holds DATA_DIR (data_dir_lock.ts).
 */
export async function restorePglite(
  file: string,
  dataDir: string,
  options: RestoreOptions = {},
): Promise<Restored> {
  const bytes = await Deno.readFile(file).catch((error) => {
    throw new BackupError(`cannot read ${file}: ${error.message}`);
  });
  const existed = await Deno.stat(dataDir).then(() => true, () => false);
  const lock = await lockDataDir(dataDir, "db:restore");
  const stamp = backupFileName(options.now ?? new Date()).slice(7, -7);
  const base = dataDir.replace(/\/+$/, "");
  const staging = `${base}.restoring-${stamp}`;
  let stagingLock: DataDirLock | undefined;
  try {
    const previous = await entriesOf(dataDir);
    if (previous.length && !options.force) {
      throw new BackupError(`${dataDir} is not empty; refusing to replace it without --force`);
    }
    try {
      await Deno.mkdir(staging, { mode: 0o700 });
    } catch (error) {
      throw new BackupError(
        `cannot create the temporary folder ${staging} beside DATA_DIR (${reason(error)}): the restore ` +
          `is built there and renamed into place, so ${dirname(resolve(base))} must be writable`,
      );
    }
    let counts: Counts;
    try {
      // The lock first, as in DATA_DIR: once renamed into place, the restored folder is already held.
      stagingLock = await lockDataDir(staging, "db:restore");
      const pg = await createPglite({ dataDir: staging, loadDataDir: await unpackBackup(bytes) });
      try {
        counts = await countRows((sql) => pg.query(sql));
      } finally {
        await pg.close();
      }
      if (!await hasDatabase(staging)) throw new Error("it holds no database");
      await makePrivate(staging);
    } catch (error) {
      throw new BackupError(`${file}: the backup is broken (${reason(error)}); DATA_DIR was not changed`);
    }
    let movedTo: string | undefined;
    if (previous.length) {
      movedTo = `${base}.before-restore-${stamp}`;
      await Deno.rename(dataDir, movedTo);
    } else if (existed) {
      await Deno.remove(join(dataDir, LOCK_FILE));
      await Deno.remove(dataDir);
    } else {
      await Deno.remove(dataDir, { recursive: true }); // only our lock file: it did not exist before
    }
    try {
      await Deno.rename(staging, dataDir);
    } catch (error) {
      if (movedTo) await Deno.rename(movedTo, dataDir).catch(() => {});
      throw new BackupError(`the restored database could not be moved into ${dataDir}: ${reason(error)}`);
    }
    return { movedTo, counts };
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    if (!existed && !(await entriesOf(dataDir)).length) {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
    throw error;
  } finally {
    stagingLock?.release();
    lock.release();
  }
}
