// Helpers for tests of the administrator's endpoints: an account and a signed-in cookie.
import assert from "node:assert/strict";
import type { Db } from "../src/db/client.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import type { TestApp } from "./app.ts";

export const ADMIN_EMAIL = "admin@example.com";
export const ADMIN_PASSWORD = "correct horse battery";

/** Creates the administrator (only when none exists, like the start-up bootstrap). */
export async function seedAdmin(db: Db, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
  await bootstrapAdmin(db, email, password);
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
