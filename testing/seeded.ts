// Seeded databases for the tests that compare roll-ups with raw rows: seeding a data set and rolling it up
// (testing/seed.ts) is most of such a test's cost on PGlite (about 12 s of CPU for 4,000 visits over 45 days,
// 7 of them the per-filter rankings), and several test files want the same data set. So on PGlite the
// seeded, rolled-up database is built once, kept as a tar archive like the migrated template
// (testing/db_template.ts), and each test opens a copy of its own; on PostgreSQL each test seeds its schema.
//
// The cache key covers everything that decides the archive's contents: the seed's options, the migrated
// template's key, and the text of testing/seed.ts and of every non-test module under src/ (the roll-ups, the
// attribution the seed derives). A change to any of them builds a new archive on the next run, which replaces
// the older ones of the same options (about 150 MB each). When test files ask for the same archive at once,
// the first builds it under a lock file and the others wait for it.
import { join } from "node:path";
import { type Db, openDb } from "../src/db/client.ts";
import { checksum, migrate } from "../src/db/migrate.ts";
import { unpackBackup } from "../src/db/pglite.ts";
import { type DbKind, dbKinds, emptyDb } from "./db.ts";
import { memoryTemplate, templateKey, writeAtomically } from "./db_template.ts";
import { seedAnalytics, type SeedOptions, type SeedResult } from "./seed.ts";

const CACHE = new URL("../.cache/test-db/", import.meta.url).pathname;
/** How often a builder touches its lock file while it builds. */
const HEARTBEAT_MS = 2_000;
/**
 * A lock untouched for this long was left by a process that died while building (a Ctrl-C), and is taken
 * over. Longer than the heartbeat by far: one statement of the seed's roll-ups holds the event loop for
 * seconds (7 s on an idle machine, the per-filter rankings), and several times that on a loaded one.
 */
const STALE_LOCK_MS = 60_000;

let codePromise: Promise<string> | undefined;

/** A digest of testing/seed.ts and every non-test TypeScript module under src/. */
function codeDigest(): Promise<string> {
  codePromise ??= (async () => {
    const root = new URL("../", import.meta.url).pathname;
    const files = ["testing/seed.ts"];
    const walk = async (dir: string) => {
      for await (const entry of Deno.readDir(join(root, dir))) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory) await walk(path);
        else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) files.push(path);
      }
    };
    await walk("src");
    files.sort();
    const texts = await Promise.all(files.map((f) => Deno.readTextFile(join(root, f))));
    return await checksum(files.map((f, i) => `${f}\0${texts[i]}`).join("\0"));
  })();
  return codePromise;
}

type Seeded = { archive: Blob; result: SeedResult };
const built = new Map<string, Promise<Seeded>>();

/** The database `seedAnalytics(options)` leaves (roll-ups up to date) as a tar archive, and what it wrote. */
export function seededTemplate(options: SeedOptions): Promise<Seeded> {
  const wanted = JSON.stringify({ ...options, now: options.now?.toISOString() });
  let entry = built.get(wanted);
  if (!entry) built.set(wanted, entry = cachedOrBuilt(options, wanted));
  return entry;
}

async function cachedOrBuilt(options: SeedOptions, wanted: string): Promise<Seeded> {
  // Named by the options, then by the code: a new build replaces the archives of the same options.
  const prefix = `seeded-${(await checksum(wanted)).slice(0, 8)}-`;
  const key = (await checksum([await templateKey(), await codeDigest(), wanted].join("\0"))).slice(0, 12);
  const path = join(CACHE, prefix + key);
  await Deno.mkdir(CACHE, { recursive: true });
  for (;;) {
    const cached = await read(path);
    if (cached) return cached;
    const lock = await Deno.open(`${path}.lock`, { createNew: true, write: true }).catch(() => null);
    if (lock) {
      lock.close();
      const touch = () => Deno.utime(`${path}.lock`, new Date(), new Date()).catch(() => {});
      const heartbeat = setInterval(touch, HEARTBEAT_MS);
      try {
        const seeded = await build(options, path);
        for await (const entry of Deno.readDir(CACHE)) {
          if (entry.name.startsWith(prefix) && !entry.name.startsWith(prefix + key)) {
            await Deno.remove(join(CACHE, entry.name)).catch(() => {});
          }
        }
        return seeded;
      } finally {
        clearInterval(heartbeat);
        await Deno.remove(`${path}.lock`).catch(() => {});
      }
    }
    // Another test file is building it: wait for the archive, or take over a lock whose builder died.
    const since = await Deno.stat(`${path}.lock`).then(
      (s) => Date.now() - (s.mtime?.getTime() ?? 0),
      () => 0,
    );
    if (since > STALE_LOCK_MS) await Deno.remove(`${path}.lock`).catch(() => {});
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function read(path: string): Promise<Seeded | null> {
  // The result is written last: with it there, the archive is whole.
  const result = await Deno.readTextFile(`${path}.json`).then(JSON.parse, () => null);
  if (!result) return null;
  const tar = await Deno.readFile(`${path}.tar`);
  return { archive: new Blob([tar], { type: "application/x-tar" }), result };
}

async function build(options: SeedOptions, path: string): Promise<Seeded> {
  const db = await openDb({ template: await memoryTemplate() });
  let seeded: Seeded;
  try {
    await migrate(db);
    const result = await seedAnalytics(db, options);
    await db.exec("checkpoint");
    seeded = { archive: await unpackBackup(await db.dumpDataDir!()), result };
  } finally {
    await db.close();
  }
  await writeAtomically(`${path}.tar`, new Uint8Array(await seeded.archive.arrayBuffer()));
  await writeAtomically(`${path}.json`, new TextEncoder().encode(JSON.stringify(seeded.result)));
  return seeded;
}

/**
 * Registers one test per database kind, named `${kind}: ${name}`, over the data set `seed` writes with its
 * roll-ups up to date: on PGlite a database of the test's own, copied from the cached archive (closed after
 * the test); on PostgreSQL the process's schema, emptied and seeded.
 */
export function seededTest(
  name: string,
  seed: SeedOptions,
  fn: (db: Db, kind: DbKind, seeded: SeedResult) => Promise<void>,
): void {
  for (const kind of dbKinds()) {
    Deno.test({
      name: `${kind}: ${name}`,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => {
        if (kind === "postgres") {
          const db = await emptyDb(kind);
          return await fn(db, kind, await seedAnalytics(db, seed));
        }
        const { archive, result } = await seededTemplate(seed);
        const db = await openDb({ template: archive });
        try {
          await migrate(db);
          await fn(db, kind, result);
        } finally {
          await db.close();
        }
      },
    });
  }
}
