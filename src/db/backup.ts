// Backups of the embedded (PGlite) database: a gzip'd tarball of its data directory, as PGlite dumps it.
// PostgreSQL deployments use pg_dump/pg_restore instead (README). The server must be stopped meanwhile:
// two processes opening one PGlite directory would corrupt it.
import { join } from "node:path";
import { makePrivate } from "./private_dir.ts";
import { createPglite, hasDatabase } from "./pglite.ts";

export class BackupError extends Error {}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
}

/** `backup-20261122-054501Z.tar.gz`: sorts by time, safe in every file system. */
export function backupFileName(now: Date): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "").replace("T", "-");
  return `backup-${stamp}.tar.gz`;
}

/** Dumps the PGlite database in `dataDir` to a new timestamped .tar.gz in `outDir`; never overwrites. */
export async function backupPglite(dataDir: string, outDir: string, now = new Date()): Promise<string> {
  if (!await hasDatabase(dataDir)) throw new BackupError(`no database in ${dataDir}`);
  await Deno.mkdir(outDir, { recursive: true, mode: 0o700 });
  const path = join(outDir, backupFileName(now));
  if (await Deno.stat(path).then(() => true, () => false)) {
    throw new BackupError(`${path} already exists; not overwriting it`);
  }
  const pg = await createPglite({ dataDir });
  let dump: Blob;
  try {
    dump = await pg.dumpDataDir("gzip");
  } finally {
    await pg.close();
  }
  try {
    // A backup holds every lead: readable by the server's user only.
    await Deno.writeFile(path, new Uint8Array(await dump.arrayBuffer()), { createNew: true, mode: 0o600 });
    await Deno.chmod(path, 0o600);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new BackupError(`${path} already exists; not overwriting it`);
    }
    throw error;
  }
  return path;
}

export interface RestoreOptions {
  /** Replace an existing database; it is moved aside to `<dataDir>.before-restore-<time>`, not deleted. */
  force?: boolean;
  now?: Date;
}

/**
 * Restores a backup made by `backupPglite` into `dataDir`, which must be empty or missing unless `force`.
 * Returns the directory the previous database was moved to, if any.
 */
export async function restorePglite(
  file: string,
  dataDir: string,
  options: RestoreOptions = {},
): Promise<string | undefined> {
  const bytes = await Deno.readFile(file).catch((error) => {
    throw new BackupError(`cannot read ${file}: ${error.message}`);
  });
  let movedTo: string | undefined;
  if (!await isEmptyOrMissing(dataDir)) {
    if (!options.force) {
      throw new BackupError(`${dataDir} is not empty; refusing to replace it without --force`);
    }
    movedTo = `${dataDir.replace(/\/+$/, "")}.before-restore-${
      backupFileName(options.now ?? new Date()).slice(7, -7)
    }`;
    await Deno.rename(dataDir, movedTo);
  }
  await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const pg = await createPglite({ dataDir, loadDataDir: new Blob([bytes]) });
  try {
    await pg.query("select 1");
  } finally {
    await pg.close();
  }
  await makePrivate(dataDir);
  if (!await hasDatabase(dataDir)) throw new BackupError(`${file} did not contain a database`);
  return movedTo;
}
