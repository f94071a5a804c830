import type { Db } from "./client.ts";

export interface Migration {
  name: string;
  sql: string;
}

/** Arbitrary but fixed key: every instance of this app takes the same advisory lock while migrating. */
const MIGRATION_LOCK_KEY = 720_451_993;

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
