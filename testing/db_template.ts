// Migrated PGlite databases for tests, built once and copied: a test process that opened a new PGlite and
// migrated it paid for initdb and every migration (about 2 s on an idle machine, 19 s under load), and a test
// that started a server over an empty DATA_DIR paid for it again in a child process. Instead:
// - `memoryTemplate()`: the data directory of an in-memory PGlite after `migrate`, as a tar archive that
//   `openDb({ template })` loads (testing/db.ts);
// - `copyDataDir(dir)`: a DATA_DIR after `migrate`, copied file by file into `dir` for a server to open.
// Both are kept in `.cache/test-db/` under a key made of the migrations (names and text), the migration code and
// the PGlite version, so a changed or added migration builds new ones on the next run, and an unchanged set is
// reused from run to run. `deno task test` builds them before it starts the test processes (prepareTemplates);
// a test file run alone builds what it needs the first time. The tests still run `migrate` on what they open:
// on a current template it finds nothing to apply.
import { join } from "node:path";
import { openDb } from "../src/db/client.ts";
import { checksum, migrate, type Migration, readMigrations } from "../src/db/migrate.ts";
import { createPglite, unpackBackup } from "../src/db/pglite.ts";
import { LOCK_FILE } from "../src/db/data_dir_lock.ts";

const CACHE = new URL("../.cache/test-db/", import.meta.url).pathname;

let keyPromise: Promise<string> | undefined;

/** The key of templates built from `migrations` by the migration code `migrateSource` with PGlite `pglite`. */
export async function keyOf(migrations: Migration[], migrateSource: string, pglite: string): Promise<string> {
  const parts = [pglite, migrateSource, ...migrations.flatMap((m) => [m.name, m.sql])];
  return (await checksum(parts.join("\0"))).slice(0, 16);
}

/** How `memoryTemplate` makes its database: a new recipe is a new key, and every cached template is rebuilt. */
const RECIPE = "no template0 or template1, 1-MB log segments, min_wal_size 2MB, wal_recycle off";

/** The current templates' key: this checkout's migrations and migration code, the PGlite in use, the recipe. */
export function templateKey(): Promise<string> {
  keyPromise ??= (async () =>
    await keyOf(
      await readMigrations(),
      await Deno.readTextFile(new URL("../src/db/migrate.ts", import.meta.url)) + RECIPE,
      import.meta.resolve("@electric-sql/pglite"),
    ))();
  return keyPromise;
}

/** Writes `path` through a temporary name and a rename, so a concurrent reader sees all of it or nothing. */
export async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeFile(temporary, bytes);
  await Deno.rename(temporary, path);
}

let memoryPromise: Promise<Blob> | undefined;

/**
 * The migrated in-memory database as a tar archive (built and cached on first use). Cached unpacked: each test
 * process loads it, and gunzipping and checking the archive cost about 0.4 s of CPU per process.
 *
 * Every test process reads the archive and PGlite copies it into its memory, so its size is paid about a
 * hundred times a suite run, in page faults above all (10 to 20 µs each on this virtual machine). The archive
 * of a new database was 42.7 MB: a 16-MB write-ahead log segment and, besides `postgres`, the `template0` and
 * `template1` databases, which only `create database` reads and no test runs. This one is made without them,
 * with 1-MB log segments, of which a checkpoint keeps none it no longer needs: 16.0 MB, read and opened by a
 * process with 1.10-1.15 s of CPU and 52,000 page faults against 1.80-1.83 s and 101,000-102,000
 * (`bench/test_template.ts`). Its tables and rows are the migrated database's. The seeded data set made from
 * it (testing/seeded.ts) went from 155.3 MB to 57.3 MB with the log it no longer needed deleted at its
 * checkpoint (`wal_recycle` off).
 */
export function memoryTemplate(): Promise<Blob> {
  memoryPromise ??= (async () => {
    const path = join(CACHE, `memory-${await templateKey()}.tar`);
    const tar = await Deno.readFile(path).catch(() => null);
    if (tar) return new Blob([tar], { type: "application/x-tar" });
    await Deno.mkdir(CACHE, { recursive: true });
    const bare = await createPglite({ initDbStartParams: ["--wal-segsize=1"] });
    let start: Blob;
    try {
      for (
        const sql of [
          "alter database template0 is_template false",
          "drop database template0",
          "alter database template1 is_template false",
          "drop database template1",
          "alter system set min_wal_size = '2MB'",
          // A checkpoint deletes the log it no longer needs instead of keeping it for reuse: the seeded data
          // set (testing/seeded.ts) is archived after one, and kept 64 MB of log for later writes.
          "alter system set wal_recycle = off",
        ]
      ) await bare.exec(sql);
      start = await unpackBackup(new Uint8Array(await (await bare.dumpDataDir("gzip")).arrayBuffer()));
    } finally {
      await bare.close();
    }
    const db = await openDb({ template: start });
    let archive: Blob;
    try {
      await migrate(db);
      await db.exec("checkpoint"); // a clean copy: no write-ahead log to replay at each load
      archive = await unpackBackup(await db.dumpDataDir!());
    } finally {
      await db.close();
    }
    await writeAtomically(path, new Uint8Array(await archive.arrayBuffer()));
    return archive;
  })();
  return memoryPromise;
}

let dirPromise: Promise<string> | undefined;

/** The migrated DATA_DIR template's path (built and cached on first use). Never open it: copy it. */
export function dataDirTemplate(): Promise<string> {
  dirPromise ??= (async () => {
    const path = join(CACHE, `datadir-${await templateKey()}`);
    if (await Deno.stat(join(path, "PG_VERSION")).then(() => true, () => false)) return path;
    await Deno.mkdir(CACHE, { recursive: true });
    const building = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}`;
    const db = await openDb({ dataDir: building, owner: "test template" });
    try {
      await migrate(db);
      await db.exec("checkpoint");
    } finally {
      await db.close();
    }
    try {
      await Deno.rename(building, path);
    } catch (error) {
      // Another process built it first: theirs is the same.
      await Deno.remove(building, { recursive: true });
      if (!await Deno.stat(join(path, "PG_VERSION")).then(() => true, () => false)) throw error;
    }
    return path;
  })();
  return dirPromise;
}

/** Copies the migrated DATA_DIR template into `dir` (created, private), for a server to open as its DATA_DIR. */
export async function copyDataDir(dir: string): Promise<void> {
  await copyTree(await dataDirTemplate(), dir);
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true, mode: 0o700 });
  const copies: Promise<void>[] = [];
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.name === LOCK_FILE) continue; // the template's own, not the copy's
    if (entry.isDirectory) copies.push(copyTree(source, target));
    else if (entry.isFile) {
      copies.push(Deno.copyFile(source, target).then(() => Deno.chmod(target, 0o600)));
    }
  }
  await Promise.all(copies);
}

/** Builds both templates if they are not cached yet (scripts/test.ts, before the test processes start). */
export async function prepareTemplates(): Promise<void> {
  await Promise.all([memoryTemplate(), dataDirTemplate()]);
}

// `deno run -A testing/db_template.ts`: what scripts/test.ts runs first (a child process, so that the
// test runner itself imports no test support).
if (import.meta.main) await prepareTemplates();
