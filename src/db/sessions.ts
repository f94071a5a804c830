import type { Queryable } from "./client.ts";

export interface SessionRow {
  id: string;
  admin_id: number;
  expires_at: Date;
  created_at: Date;
  email: string;
}

/** Stores a session (id = SHA-256 of the token, hex). */
export async function insertSession(
  db: Queryable,
  id: string,
  adminId: number,
  expiresAt: Date,
  createdAt: Date,
): Promise<void> {
  await db.query("insert into sessions (id, admin_id, expires_at, created_at) values ($1, $2, $3, $4)", [
    id,
    adminId,
    expiresAt,
    createdAt,
  ]);
}

/** A session with its administrator's e-mail, if the id exists (expired or not). */
export async function findSession(db: Queryable, id: string): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    `select s.id, s.admin_id, s.expires_at, s.created_at, a.email
       from sessions s join admins a on a.id = s.admin_id
      where s.id = $1`,
    [id],
  );
  const row = rows[0];
  return row && { ...row, expires_at: new Date(row.expires_at), created_at: new Date(row.created_at) };
}

/** Moves a session's expiry. */
export async function extendSession(db: Queryable, id: string, expiresAt: Date): Promise<void> {
  await db.query("update sessions set expires_at = $2 where id = $1", [id, expiresAt]);
}

/** Deletes one session. */
export async function deleteSession(db: Queryable, id: string): Promise<void> {
  await db.query("delete from sessions where id = $1", [id]);
}

/** Deletes every session of an administrator except `keepId` (null: all of them). */
export async function deleteOtherSessions(
  db: Queryable,
  adminId: number,
  keepId: string | null,
): Promise<void> {
  await db.query("delete from sessions where admin_id = $1 and ($2::text is null or id <> $2)", [
    adminId,
    keepId,
  ]);
}

/** Deletes sessions that expired before `now`; returns how many. */
export async function deleteExpiredSessions(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "with d as (delete from sessions where expires_at < $1 returning 1) select count(*)::int as n from d",
    [now],
  );
  return rows[0].n;
}
