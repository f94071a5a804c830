// Helpers for tests of the administrator's endpoints: an account and a signed-in cookie.
import assert from "node:assert/strict";
import type { Db } from "../src/db/client.ts";
import { countAdmins, insertFirstAdmin } from "../src/db/admins.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { hashPassword } from "../src/services/passwords.ts";
import type { TestApp } from "./app.ts";

export const ADMIN_EMAIL = "admin@example.com";
export const ADMIN_PASSWORD = "correct horse battery";

let defaultHash: Promise<string> | undefined;

/**
 * Creates the administrator (only when none exists, like the start-up bootstrap). The default password's
 * hash (argon2id with the production parameters, as bootstrapAdmin makes it) is computed once per test file
 * and reused: checking the password rule and hashing cost 60–90 ms a call, and 700 ms for a file's first
 * (the rule's dictionaries). src/routes/api/admin_test.ts tests bootstrapAdmin itself.
 */
export async function seedAdmin(db: Db, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
  if (email !== ADMIN_EMAIL || password !== ADMIN_PASSWORD) {
    await bootstrapAdmin(db, email, password);
    return;
  }
  if (await countAdmins(db) > 0) return;
  defaultHash ??= hashPassword(ADMIN_PASSWORD);
  await insertFirstAdmin(db, ADMIN_EMAIL, await defaultHash);
}

/** The `name=value` part of the session cookie a response set, if any. */
export function sessionCookieOf(res: Response): string | undefined {
  // Named `__Host-admin_session` when the public origin is https.
  const line = res.headers.getSetCookie().find((c) => /^(__Host-)?admin_session=/.test(c));
  return line?.split(";")[0];
}

/** Signs in and returns the Cookie header value for later requests. */
export async function signIn(t: TestApp, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const res = await t.postJson("/api/admin/login", { email, password });
  assert.equal(res.status, 200, await res.clone().text());
  const cookie = sessionCookieOf(res);
  assert.ok(cookie, "login sets the session cookie");
  return cookie;
}

/** GET with the session cookie. */
export function getAs(t: TestApp, cookie: string, path: string): Promise<Response> {
  return t.request(path, { headers: { cookie } });
}

/**
 * The dashboard's reports of visits, clicks and leads for one range, whose answers the roll-up tests compare
 * before and after rolling up (the panels added since, such as engagement, have roll-up tests of their own).
 */
export function dashboardEndpoints(start: string, end: string): string[] {
  const r = `startDate=${start}&endDate=${end}`;
  return [
    `/api/tracking/summary?${r}`,
    `/api/tracking/stats?${r}`,
    `/api/tracking/analytics?${r}`,
    `/api/tracking/unique-visits?${r}`,
    `/api/tracking/rankings/utm-source?${r}`,
    `/api/tracking/rankings/utm-campaign?${r}`,
    `/api/tracking/rankings/pages?${r}`,
    `/api/tracking/conversion-by-utm-source?${r}`,
    `/api/tracking/channels?${r}`,
    `/api/tracking/rankings/sources?${r}`,
    `/api/tracking/rankings/entry-pages?${r}`,
    `/api/leads/analytics?${r}`,
  ];
}

/** The JSON answer of each of `paths` (GET, signed in), each checked to be a 200. */
export async function answersAs(
  t: TestApp,
  cookie: string,
  paths: string[],
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    out[path] = await res.json();
  }
  return out;
}
