import type { Db } from "../db/client.ts";
import { findAdminByEmail, findAdminById, insertFirstAdmin, updateAdminPassword } from "../db/admins.ts";
import {
  insertLoginFailure,
  purgeLoginFailures,
  recentFailuresByAccount,
  recentFailuresByClient,
} from "../db/login_failures.ts";
import { deleteExpiredSessions, deleteOtherSessions } from "../db/sessions.ts";
import { RateLimited } from "../server/errors.ts";
import { hashPassword, verifyDummy, verifyPassword } from "./passwords.ts";
import { createSession, type Session } from "./sessions.ts";

/** Failed-login throttling (per 15 minutes): a client gets 5 tries, an account 10 from all clients. */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_CLIENT_FAILURES = 5;
export const MAX_ACCOUNT_FAILURES = 10;

/** The same words for an unknown e-mail and a wrong password. */
export const BAD_CREDENTIALS = "E-mail ou senha inválidos.";
export const TOO_MANY_ATTEMPTS = "Muitas tentativas de login. Aguarde alguns minutos e tente novamente.";

export class BadCredentials extends Error {}

export interface LoginInput {
  email: string;
  password: string;
  /** Pseudonymous client key (visitor key), never an IP. */
  clientKey: string;
  now: Date;
}

/** Seconds until the oldest of the last `max` failures leaves the window, when `max` are already in it. */
function blockedFor(failures: Date[], max: number, now: Date): number {
  if (failures.length < max) return 0;
  const oldest = failures[max - 1];
  return Math.max(1, Math.ceil((oldest.getTime() + LOGIN_WINDOW_MS - now.getTime()) / 1000));
}

/**
 * Checks credentials with throttling. Throws RateLimited while the client or the account is blocked (the
 * password is not even checked then), BadCredentials on failure (recorded); returns a new session token.
 */
export async function login(db: Db, input: LoginInput): Promise<{ token: string; session: Session }> {
  const account = input.email.trim().toLowerCase();
  const since = new Date(input.now.getTime() - LOGIN_WINDOW_MS);
  const [byClient, byAccount] = await Promise.all([
    recentFailuresByClient(db, input.clientKey, since, MAX_CLIENT_FAILURES),
    recentFailuresByAccount(db, account, since, MAX_ACCOUNT_FAILURES),
  ]);
  const wait = Math.max(
    blockedFor(byClient, MAX_CLIENT_FAILURES, input.now),
    blockedFor(byAccount, MAX_ACCOUNT_FAILURES, input.now),
  );
  if (wait > 0) throw new RateLimited(wait, TOO_MANY_ATTEMPTS);

  const admin = await findAdminByEmail(db, account);
  const ok = admin
    ? await verifyPassword(admin.password_hash, input.password)
    : await verifyDummy(input.password);
  if (!admin || !ok) {
    await insertLoginFailure(db, input.clientKey, account, input.now);
    throw new BadCredentials(BAD_CREDENTIALS);
  }
  // Housekeeping that needs no scheduler: old failures and dead sessions go on each successful login.
  await purgeLoginFailures(db, new Date(input.now.getTime() - 24 * 3_600_000));
  await deleteExpiredSessions(db, input.now);
  return await createSession(db, admin.id, admin.email, input.now);
}

export class WrongCurrentPassword extends Error {}

/** Changes the password after verifying the current one; every other session of the admin ends. */
export async function changePassword(
  db: Db,
  session: Session,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  const admin = await findAdminById(db, session.adminId);
  if (!admin || !(await verifyPassword(admin.password_hash, currentPassword))) {
    throw new WrongCurrentPassword("Senha atual incorreta.");
  }
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await updateAdminPassword(tx, admin.id, passwordHash);
    await deleteOtherSessions(tx, admin.id, session.id);
  });
}

/** Creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD when none exists; never overwrites one. */
export async function bootstrapAdmin(db: Db, email?: string, password?: string): Promise<boolean> {
  if (!email || !password) return false;
  return await insertFirstAdmin(db, email.trim().toLowerCase(), await hashPassword(password));
}

/** Sets a new password for the administrator with this e-mail and ends all their sessions (CLI reset). */
export async function resetPassword(db: Db, email: string, password: string): Promise<boolean> {
  const admin = await findAdminByEmail(db, email.trim());
  if (!admin) return false;
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await updateAdminPassword(tx, admin.id, passwordHash);
    await deleteOtherSessions(tx, admin.id, null);
  });
  return true;
}
