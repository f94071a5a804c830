import type { Db } from "../db/client.ts";
import {
  countAdmins,
  findAdminByEmail,
  findAdminById,
  insertFirstAdmin,
  updateAdminPassword,
} from "../db/admins.ts";
import {
  deleteLoginFailure,
  insertLoginDevice,
  insertLoginFailure,
  lockLoginAttempt,
  loginDeviceAccount,
  loginFailureCounts,
  purgeLoginDevices,
  purgeLoginFailures,
} from "../db/login_failures.ts";
import { deleteExpiredSessions, deleteOtherSessions } from "../db/sessions.ts";
import { RateLimited } from "../core/errors.ts";
import { hashPassword, verifyDummy, verifyPassword } from "./passwords.ts";
import { assertAcceptablePassword, UnacceptablePassword } from "./password_rule.ts";

export { UnacceptablePassword };
import { createSession, generateSessionToken, type Session, sessionIdOf } from "./sessions.ts";

/**
 * Failed-login throttling, per 15 minutes (OWASP's device-cookie pattern). A browser that signed in before
 * carries a device token: only its own failures count against it (5). Other browsers get 5 per client,
 * and once the account has 10 failures from such browsers, each further attempt waits twice as long after
 * the latest failure (2 s, 4 s, ... up to the window): an attacker slows everyone else down but never locks
 * the administrator out, and the administrator's own browser is not slowed at all.
 *
 * This is not the request limiter of services/rate_limit.ts, and cannot be: it counts failures (a right
 * password deletes its reservation), with three scopes (device, client, account) and a growing delay instead
 * of a fixed window, and it reserves the attempt under per-client and per-account advisory locks in the
 * same transaction that reads the counts, so parallel guesses cannot all pass. A fixed-window hit counter
 * incremented before the password check would lock the administrator out with an attacker's requests.
 */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_CLIENT_FAILURES = 5;
export const MAX_DEVICE_FAILURES = 5;
export const MAX_ACCOUNT_FAILURES = 10;
/** How long a device token stays valid. */
export const DEVICE_DAYS = 365;

/** An unknown e-mail or a wrong password: the same error for both, so neither is revealed. */
export class BadCredentials extends Error {}

export interface LoginInput {
  email: string;
  password: string;
  /** Pseudonymous client key (visitor key), never an IP. */
  clientKey: string;
  /** The browser's device token cookie, if it sent one. */
  deviceToken?: string | null;
  now: Date;
}

/** Seconds until the oldest of the last `max` failures leaves the window, when `max` are already in it. */
function blockedFor(failures: Date[], max: number, now: Date): number {
  if (failures.length < max) return 0;
  const oldest = failures[max - 1];
  return Math.max(1, Math.ceil((oldest.getTime() + LOGIN_WINDOW_MS - now.getTime()) / 1000));
}

/** Seconds an unknown browser waits: past the account's limit, 2^(failures over it) s after the latest. */
export function accountDelay(failures: number, latest: Date | null, now: Date): number {
  if (failures < MAX_ACCOUNT_FAILURES || !latest) return 0;
  const delayMs = Math.min(2 ** (failures - MAX_ACCOUNT_FAILURES + 1) * 1000, LOGIN_WINDOW_MS);
  const waitMs = latest.getTime() + delayMs - now.getTime();
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/** A device token: 20 random bytes, base32 (like session tokens); only its SHA-256 is stored. */
async function deviceOf(db: Db, token: string | null | undefined, account: string, now: Date) {
  if (!token || !/^[a-z2-7]{32}$/.test(token)) return null;
  const id = sessionIdOf(token);
  const since = new Date(now.getTime() - DEVICE_DAYS * 86_400_000);
  return (await loginDeviceAccount(db, id, since)) === account ? id : null;
}

/**
 * Records an attempt against the account as a failure before its password is checked, under per-client and
 * per-account locks, so parallel guesses cannot all pass the count; returns the record's id, to delete when
 * the password was right. Throws RateLimited while blocked (the password is not even checked then).
 */
async function reserveAttempt(
  db: Db,
  attempt: { clientKey: string; account: string; device: string | null; now: Date },
): Promise<number> {
  const { clientKey, account, device, now } = attempt;
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const reserved = await db.transaction(async (tx) => {
    await lockLoginAttempt(tx, clientKey, account);
    const counts = await loginFailureCounts(
      tx,
      { clientKey, account, device },
      since,
      Math.max(MAX_CLIENT_FAILURES, MAX_DEVICE_FAILURES),
    );
    const wait = device ? blockedFor(counts.device, MAX_DEVICE_FAILURES, now) : Math.max(
      blockedFor(counts.client, MAX_CLIENT_FAILURES, now),
      accountDelay(counts.account, counts.accountLatest, now),
    );
    if (wait > 0) return { wait };
    return { id: await insertLoginFailure(tx, { clientKey, account, device, at: now }) };
  });
  if (reserved.wait) throw new RateLimited(reserved.wait);
  return reserved.id!;
}

/**
 * Checks credentials with throttling. The attempt is recorded as a failure under the account's lock before
 * the password is checked, so parallel guesses cannot all pass the count (the record is deleted when the
 * password was right). Throws RateLimited while blocked (the password is not even checked then),
 * BadCredentials on failure; returns a new session token and the browser's device token.
 */
export async function login(
  db: Db,
  input: LoginInput,
): Promise<{ token: string; session: Session; deviceToken: string }> {
  const account = input.email.trim().toLowerCase();
  const device = await deviceOf(db, input.deviceToken, account, input.now);
  const reservation = await reserveAttempt(db, {
    clientKey: input.clientKey,
    account,
    device,
    now: input.now,
  });
  const admin = await findAdminByEmail(db, account);
  const ok = admin
    ? await verifyPassword(admin.password_hash, input.password)
    : await verifyDummy(input.password);
  if (!admin || !ok) throw new BadCredentials("bad_credentials");
  await deleteLoginFailure(db, reservation);
  let deviceToken = input.deviceToken!;
  if (!device) {
    deviceToken = generateSessionToken();
    await insertLoginDevice(db, sessionIdOf(deviceToken), account, input.now);
  }
  // Housekeeping that needs no scheduler: old failures, devices and dead sessions go on each successful login.
  await purgeLoginFailures(db, new Date(input.now.getTime() - 24 * 3_600_000));
  await purgeLoginDevices(db, new Date(input.now.getTime() - DEVICE_DAYS * 86_400_000));
  await deleteExpiredSessions(db, input.now);
  return { ...await createSession(db, admin.id, admin.email, input.now), deviceToken };
}

export class WrongCurrentPassword extends Error {}

/**
 * Changes the password after verifying the current one, throttled like a sign-in (a stolen session cannot
 * guess the current password at leisure); every other session of the admin ends. The new password must pass
 * the one password rule (password_rule.ts), against the current one and the administrator's e-mail.
 */
export async function changePassword(
  db: Db,
  session: Session,
  change: { currentPassword: string; newPassword: string; clientKey: string; deviceToken?: string | null },
  now: Date,
): Promise<void> {
  const account = session.email.trim().toLowerCase();
  const device = await deviceOf(db, change.deviceToken, account, now);
  const reservation = await reserveAttempt(db, { clientKey: change.clientKey, account, device, now });
  const admin = await findAdminById(db, session.adminId);
  if (!admin || !(await verifyPassword(admin.password_hash, change.currentPassword))) {
    throw new WrongCurrentPassword("wrong current password");
  }
  await deleteLoginFailure(db, reservation);
  await assertAcceptablePassword(change.newPassword, { current: change.currentPassword, email: admin.email });
  const passwordHash = await hashPassword(change.newPassword);
  await db.transaction(async (tx) => {
    await updateAdminPassword(tx, admin.id, passwordHash);
    await deleteOtherSessions(tx, admin.id, session.id);
  });
}

/**
 * Creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD when none exists; never overwrites one. The
 * password must pass the one password rule (UnacceptablePassword otherwise); once an administrator exists,
 * ADMIN_PASSWORD is not used, and not judged.
 */
export async function bootstrapAdmin(db: Db, email?: string, password?: string): Promise<boolean> {
  if (!email || !password) return false;
  if (await countAdmins(db) > 0) return false;
  await assertAcceptablePassword(password, { email });
  return await insertFirstAdmin(db, email.trim().toLowerCase(), await hashPassword(password));
}

/**
 * Sets a new password for the administrator with this e-mail and ends all their sessions (CLI reset); the
 * password must pass the one password rule (UnacceptablePassword otherwise).
 */
export async function resetPassword(db: Db, email: string, password: string): Promise<boolean> {
  const admin = await findAdminByEmail(db, email.trim());
  if (!admin) return false;
  await assertAcceptablePassword(password, { email: admin.email });
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await updateAdminPassword(tx, admin.id, passwordHash);
    await deleteOtherSessions(tx, admin.id, null);
  });
  return true;
}
