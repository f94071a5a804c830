import type { Db, Queryable } from "./client.ts";

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

/** A migration already applied whose file has changed since: refused, nothing applied. */
export class MigrationChangedError extends Error {}

/** The database holds migrations this build does not ship (a newer build migrated it): refused. */
export class SchemaNewerError extends Error {}

/**
 * SHA-256 (hex) of a migration file's text, with CRLF read as LF so a checkout that converts line endings
 * does not count as a change.
 */
export async function checksum(sql: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sql.replace(/\r\n/g, "\n")));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

interface AppliedRow {
  name: string;
  checksum: string | null;
}

/**
 * Throws unless every applied migration is one of this build's files, unchanged. `applied` rows without a
 * checksum (applied before checksums were recorded, or by an older build) are not compared.
 */
export function checkApplied(applied: AppliedRow[], files: { name: string; checksum: string }[]): void {
  const known = new Map(files.map((f) => [f.name, f.checksum]));
  const last = files.at(-1)?.name ?? "";
  const unknown = applied.filter((row) => !known.has(row.name)).map((row) => row.name).sort();
  const newer = unknown.filter((name) => name > last);
  if (newer.length) {
    throw new SchemaNewerError(
      `migrations: the database was migrated by a newer build (${newer.join(", ")} applied; this build ` +
        `ships up to ${last}). Refusing to start: an older build would write rows without the newer ` +
        `columns. Run the newer build, or restore the backup taken before the upgrade (README, "Upgrades ` +
        `and rollbacks").`,
    );
  }
  if (unknown.length) {
    throw new SchemaNewerError(
      `migrations: ${unknown.join(", ")} applied to the database but not in this build (renamed or ` +
        `deleted?). Refusing to start: put the file back under its applied name.`,
    );
  }
  for (const row of applied) {
    if (row.checksum !== null && row.checksum !== known.get(row.name)) {
      throw new MigrationChangedError(
        `migrations: ${row.name} was changed after it was applied to this database (checksum ` +
          `${row.checksum.slice(0, 12)}… applied, ${known.get(row.name)!.slice(0, 12)}… in this build). ` +
          `Refusing to start: restore the file as it was applied and put the change in a new migration.`,
      );
    }
  }
}

/**
 * Applies pending migrations in order inside one transaction and records them with their checksums. On
 * PostgreSQL a transaction-scoped advisory lock makes concurrent starts safe: the second waits, then finds
 * nothing to do. Before applying anything it refuses (throws) a database migrated by a newer build and an
 * applied migration whose file changed (checkApplied). Returns the names applied.
 *
 * Checksums are recorded from 00012 on (its column). Rows applied before it have none: they get the
 * checksum of this build's file on the first run, since there is nothing to compare them with. That trusts
 * 00011 as it is now, although its text changed twice after it was first applied (the leads index): 00013
 * rebuilds that index, so every database ends up with what the current text describes, whichever text it
 * ran.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? await readMigrations();
  checkNumbering(all.map((m) => m.name));
  const files = await Promise.all(all.map(async (m) => ({ ...m, checksum: await checksum(m.sql) })));
  return await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const applied = await appliedRows(tx);
    checkApplied(applied, files);
    const done = new Set(applied.map((row) => row.name));
    const names: string[] = [];
    for (const m of files) {
      if (done.has(m.name)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into schema_migrations (name) values ($1)", [m.name]);
      names.push(m.name);
    }
    if (await hasChecksumColumn(tx)) {
      await tx.query(
        `update schema_migrations m set checksum = f.checksum
           from unnest($1::text[], $2::text[]) as f(name, checksum)
          where m.name = f.name and m.checksum is null`,
        [files.map((m) => m.name), files.map((m) => m.checksum)],
      );
    }
    return names;
  });
}

/** The recorded migrations, with their checksums (null before 00012 added the column, or not yet filled). */
async function appliedRows(q: Queryable): Promise<AppliedRow[]> {
  // to_jsonb reads the column when it exists and gives null before 00012 created it, in one statement.
  return await q.query<AppliedRow>(
    "select name, to_jsonb(m) ->> 'checksum' as checksum from schema_migrations m order by name",
  );
}

async function hasChecksumColumn(q: Queryable): Promise<boolean> {
  const rows = await q.query(
    `select 1 from information_schema.columns
     where table_schema = current_schema() and table_name = 'schema_migrations' and column_name = 'checksum'`,
  );
  return rows.length > 0;
}

/** Names of migrations recorded as applied (readiness checks). */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>("select name from schema_migrations order by name");
  return rows.map((r) => r.name);
}
