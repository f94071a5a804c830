// Test databases: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. One database per kind per
// test process, emptied before each test. PGlite starts from the migrated template (testing/db_template.ts)
// instead of running initdb and every migration in each process.
import { type Db, openDb, type Queryable } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { memoryTemplate } from "./db_template.ts";

export type DbKind = "pglite" | "postgres";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

/** The database kinds tests run against here. */
export function dbKinds(): DbKind[] {
  return TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

const shared = new Map<DbKind, Promise<{ db: Db; tables: string[] }>>();

async function open(kind: DbKind): Promise<{ db: Db; tables: string[] }> {
  let db: Db;
  if (kind === "postgres") {
    // A schema of our own, so concurrent test processes never see each other's rows.
    const schema = `test_${Deno.pid}_${crypto.randomUUID().slice(0, 8)}`;
    const admin = await openDb({ databaseUrl: TEST_DATABASE_URL, max: 1 });
    await admin.exec(`create schema ${schema}`);
    await admin.close();
    db = await openDb({ databaseUrl: TEST_DATABASE_URL, schema, max: 4 });
    globalThis.addEventListener("unload", () => {
      // Best effort: a leftover schema only costs disk.
      new Deno.Command("psql", {
        args: [TEST_DATABASE_URL!, "-qc", `drop schema if exists ${schema} cascade`],
      })
        .outputSync();
    });
  } else {
    db = await openDb({ template: await memoryTemplate() });
  }
  await migrate(db); // nothing to apply on the template; migrates a new PostgreSQL schema
  return { db, tables: await ownTables(db) };
}

/** The tables of the database's current schema (this process's on PostgreSQL), the migrations' record left out. */
export async function ownTables(db: Queryable): Promise<string[]> {
  return (await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'`,
  )).map((r) => r.table_name);
}

/** A migrated, empty database of the given kind (shared within this process, emptied on each call). */
export async function emptyDb(kind: DbKind): Promise<Db> {
  let entry = shared.get(kind);
  if (!entry) shared.set(kind, entry = open(kind));
  const { db, tables } = await entry;
  await emptyTables(db, tables);
  return db;
}

/**
 * Empties `tables` and restarts their sequences, as `truncate … restart identity` of all of them would, but
 * touches only what a test changed: the tables that hold rows, and the sequences that moved (one can move
 * with no row left behind: an insert rolled back, a row deleted). A truncate gives every table and index new
 * files, so truncating all of them before each test cost about 250 ms on PGlite and 570 ms on PostgreSQL; a
 * test writes a few tables, and finding them is one statement, which also puts the moved sequences back to
 * their start (`setval(…, false)`: the next value is the start, as after a restart).
 */
async function emptyTables(db: Db, tables: string[]): Promise<void> {
  if (!tables.length) return;
  const [{ full }] = await db.query<{ full: string[] }>(
    `select array(${
      tables.map((t) => `select '${t}' where exists (select from ${t})`).join(" union all ")
    }) as full,
       (select count(setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false))
          from pg_sequences where schemaname = current_schema() and last_value is not null) as restarted`,
  );
  if (full.length) await db.exec(`truncate table ${full.join(", ")} cascade`);
}

/**
 * Registers one test per database kind, named `${kind}: ${name}`. The database stays open between tests,
 * so resource sanitizers are off for these.
 */
export function dbTest(name: string, fn: (db: Db, kind: DbKind) => Promise<void>): void {
  for (const kind of dbKinds()) {
    Deno.test({
      name: `${kind}: ${name}`,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => await fn(await emptyDb(kind), kind),
    });
  }
}

/**
 * Runs `fn` with its own PostgreSQL pool of `max` connections over a fresh, migrated schema, dropped
 * afterwards: for tests that close the pool or need to know which connection runs what. Needs TEST_DATABASE_URL.
 */
export async function withOwnSchema(
  prefix: string,
  max: number,
  fn: (db: Db) => Promise<void>,
): Promise<void> {
  const schema = `${prefix}_${Deno.pid}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = await openDb({ databaseUrl: TEST_DATABASE_URL, max: 1 });
  await admin.exec(`create schema ${schema}`);
  const db = await openDb({ databaseUrl: TEST_DATABASE_URL, schema, max });
  try {
    await migrate(db);
    await fn(db);
  } finally {
    await db.close().catch(() => {}); // the test may have closed it already
    await admin.exec(`drop schema ${schema} cascade`);
    await admin.close();
  }
}

/**
 * An empty PostgreSQL schema for server processes a test starts (they migrate it themselves): `url` connects
 * into it, `admin` looks inside (`${schema}.table`). Dropped afterwards, once `fn` has stopped its processes.
 */
export async function withProcessSchema(
  prefix: string,
  fn: (it: { schema: string; url: string; admin: Db }) => Promise<void>,
): Promise<void> {
  const schema = `${prefix}_${Deno.pid}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = await openDb({ databaseUrl: TEST_DATABASE_URL, max: 1 });
  await admin.exec(`create schema ${schema}`);
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set("options", `-csearch_path=${schema}`);
  try {
    await fn({ schema, url: url.href, admin });
  } finally {
    await admin.exec(`drop schema ${schema} cascade`);
    await admin.close();
  }
}
