import type { Queryable } from "./client.ts";

export interface AdminRow {
  id: number;
  email: string;
  password_hash: string;
}

/** The administrator with this e-mail (case-insensitive), if any. */
export async function findAdminByEmail(db: Queryable, email: string): Promise<AdminRow | undefined> {
  const rows = await db.query<AdminRow>(
    "select id, email, password_hash from admins where lower(email) = lower($1)",
    [email],
  );
  return rows[0];
}

/** The administrator with this id, if any. */
export async function findAdminById(db: Queryable, id: number): Promise<AdminRow | undefined> {
  const rows = await db.query<AdminRow>("select id, email, password_hash from admins where id = $1", [id]);
  return rows[0];
}

/** How many administrators exist. */
export async function countAdmins(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>("select count(*)::int as n from admins");
  return rows[0].n;
}

/**
 * Inserts an administrator only when none exists, in one statement (two instances starting together cannot
 * both create one with the same e-mail). Returns whether a row was written.
 */
export async function insertFirstAdmin(db: Queryable, email: string, passwordHash: string): Promise<boolean> {
  const rows = await db.query(
    `insert into admins (email, password_hash)
     select $1, $2 where not exists (select 1 from admins)
     on conflict (email) do nothing
     returning id`,
    [email, passwordHash],
  );
  return rows.length > 0;
}

/** Replaces an administrator's password hash. */
export async function updateAdminPassword(db: Queryable, id: number, passwordHash: string): Promise<void> {
  await db.query("update admins set password_hash = $2, updated_at = now() where id = $1", [
    id,
    passwordHash,
  ]);
}

/** The administrator's e-mail (the first account), for alerts; undefined before one exists. */
export async function firstAdminEmail(db: Queryable): Promise<string | undefined> {
  const rows = await db.query<{ email: string }>("select email from admins order by id limit 1");
  return rows[0]?.email;
}
