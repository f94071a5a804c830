import type { Db } from "./client.ts";

export interface Migration {
  name: string;
  sql: string;
}

/** Arbitrary but fixed key: every instance of this app takes the same advisory lock while migrating. */
const MIGRATION_LOCK_KEY = 720_451_993;

/**
 * Numbers that were never used: 00001 was followed by 00005 when the first migrations were folded into
 * 00001 before any release, and applied databases record the names as they are. Never renumber a migration
 * to close a gap (every database would apply it again); the check below refuses any gap but these.
 */
const NEVER_USED = new Set([2, 3, 4]);

/** A migrations folder with a missing or repeated number: refused before anything is applied. */
export class MigrationNumberingError extends Error {}

/**
 * Throws unless the migrations, sorted by name, are numbered 00001, 00002… with no gap (except the numbers
 * in NEVER_USED) and no number twice: a gap means a file was lost in a merge or a rename, and a database
 * migrated without it could not be told apart from one migrated with it.
 */
export function checkNumbering(names: string[]): void {
  let expected = 1;
  for (const name of names) {
    const number = Number(name.slice(0, 5));
    while (NEVER_USED.has(expected) && number !== expected) expected++;
    if (number === expected) {
      expected++;
      continue;
    }
    const want = String(expected).padStart(5, "0");
    throw new MigrationNumberingError(
      number < expected
        ? `migrations: ${name} repeats number ${name.slice(0, 5)}; give it the next free number, ${want}`
        : `migrations: ${name} follows a gap, ${want} is missing; number the next migration ${want} (never ` +
          `renumber an applied one)`,
    );
  }
}

/** Reads `migrations/*.sql` (next to the source, not the working directory), sorted by file name. */
export async function readMigrations(
  dir = new URL("../../migrations/", import.meta.url),
): Promise<Migration[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && /^\d{5}_[a-z0-9_]+\.sql$/.test(entry.name)) names.push(entry.name);
  }
  names.sort();
  return await Promise.all(
    names.map(async (name) => ({ name, sql: await Deno.readTextFile(new URL(name, dir)) })),
  );
}

/**
 * Applies pending migrations in order inside one transaction and records them. On PostgreSQL a
 * transaction-scoped advisory lock makes concurrent starts safe: the second waits, then finds nothing to do.
 * Returns the names applied.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? await readMigrations();
  checkNumbering(all.map((m) => m.name));
  return await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const m of all) {
      if (done.has(m.name)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into schema_migrations (name) values ($1)", [m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}

/** Names of migrations recorded as applied (readiness checks). */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>("select name from schema_migrations order by name");
  return rows.map((r) => r.name);
}
