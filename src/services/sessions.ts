import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Queryable } from "../db/client.ts";
import { deleteSession, extendSession, findSession, insertSession } from "../db/sessions.ts";

const DAY_MS = 86_400_000;
/** Sessions last 30 days... */
export const SESSION_DAYS = 30;
/** ...and are pushed back to 30 days when fewer than 15 remain... */
const RENEW_BELOW_DAYS = 15;
/** ...but never past 90 days after sign-in: a stolen cookie in steady use still dies. */
export const SESSION_MAX_DAYS = 90;

export interface Session {
  id: string;
  adminId: number;
  email: string;
  expiresAt: Date;
}

/** A new random session token: 20 bytes, base32 lower-case (Lucia's oslo recipe). */
export function generateSessionToken(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

/** The id stored for a token: SHA-256(token), hex. The token itself is never stored. */
export function sessionIdOf(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Creates a session for an administrator; returns the token for the cookie. */
export async function createSession(
  db: Queryable,
  adminId: number,
  email: string,
  now: Date,
): Promise<{ token: string; session: Session }> {
  const token = generateSessionToken();
  const session: Session = {
    id: sessionIdOf(token),
    adminId,
    email,
    expiresAt: new Date(now.getTime() + SESSION_DAYS * DAY_MS),
  };
  await insertSession(db, session.id, adminId, session.expiresAt, now);
  return { token, session };
}

/**
 * Resolves a cookie token to a live session: expired ones are deleted; one with fewer than 15 days left is
 * extended to 30 (`renewed` tells the caller to re-send the cookie).
 */
export async function validateSessionToken(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ session: Session; renewed: boolean } | null> {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const row = await findSession(db, sessionIdOf(token));
  if (!row) return null;
  if (now.getTime() >= row.expires_at.getTime()) {
    await deleteSession(db, row.id);
    return null;
  }
  const session: Session = { id: row.id, adminId: row.admin_id, email: row.email, expiresAt: row.expires_at };
  const renewTo = Math.min(
    now.getTime() + SESSION_DAYS * DAY_MS,
    row.created_at.getTime() + SESSION_MAX_DAYS * DAY_MS,
  );
  if (
    row.expires_at.getTime() - now.getTime() < RENEW_BELOW_DAYS * DAY_MS && renewTo > row.expires_at.getTime()
  ) {
    session.expiresAt = new Date(renewTo);
    await extendSession(db, row.id, session.expiresAt);
    return { session, renewed: true };
  }
  return { session, renewed: false };
}

/** Ends a session (logout). */
export async function invalidateSession(db: Queryable, id: string): Promise<void> {
  await deleteSession(db, id);
}
