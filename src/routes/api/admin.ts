import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { readJson } from "../../server/body.ts";
import { log } from "../../core/log.ts";
import {
  adminGuard,
  adminOnly,
  adminSession,
  clearSessionCookie,
  deviceCookie,
  loadSession,
  setDeviceCookie,
  setSessionCookie,
} from "../../server/middleware/session.ts";
import { visitor } from "../../server/middleware/visitor.ts";
import { outcome } from "../../server/middleware/outcome.ts";
import {
  BadCredentials,
  changePassword,
  DEVICE_DAYS,
  login,
  UnacceptablePassword,
  WrongCurrentPassword,
} from "../../services/auth.ts";
import { invalidateSession } from "../../services/sessions.ts";
import {
  type AuthStatus,
  changePasswordBody,
  type LoginAnswer,
  loginBody,
  type PasswordChangeAnswer,
} from "../../shared/schemas.ts";
import { SUCCESS_TEXTS } from "../../shared/admin_messages.ts";
import { refused } from "./refused.ts";

const BODY_LIMIT = 4096;

/**
 * /api/admin: sign-in, session check, sign-out and password change. The sign-in and the password change
 * answer `success` and a Portuguese `message` in every answer, refusals included (`outcome()`); the session
 * check answers `isAuthenticated` and `email`. The LGPD tools and deliveries are mounted beside it
 * (routes/api/lgpd.ts, deliveries.ts).
 */
export const adminApi = new Hono<AppEnv>();

adminApi.post("/login", outcome(), adminGuard(), visitor(), async (c) => {
  const { db } = c.get("deps");
  const body = await readJson(c, loginBody, { maxBytes: BODY_LIMIT });
  const clientKey = c.get("visitor").key;
  try {
    const { token, session, deviceToken } = await login(db, {
      ...body,
      clientKey,
      deviceToken: deviceCookie(c),
      now: c.get("now"),
    });
    setSessionCookie(c, token, session.expiresAt);
    setDeviceCookie(c, deviceToken, DEVICE_DAYS);
    log.info("admin login", { clientKey });
    return c.json(
      {
        success: true,
        message: SUCCESS_TEXTS.login,
        isAuthenticated: true,
        email: session.email,
      } satisfies LoginAnswer,
    );
  } catch (error) {
    if (error instanceof BadCredentials) {
      // The client key is the visitor key (a keyed hash of the IP, never the IP): it ties the lines of one
      // attacker together.
      log.warn("admin login failed", { clientKey });
      throw refused(401, "bad_credentials");
    }
    throw error;
  }
});

adminApi.get("/check-auth", adminGuard(), loadSession(), (c) => {
  const session = c.get("session");
  return c.json({ isAuthenticated: Boolean(session), email: session?.email ?? null } satisfies AuthStatus);
});

adminApi.post("/logout", adminGuard(), loadSession(), async (c) => {
  const session = c.get("session");
  if (session) await invalidateSession(c.get("deps").db, session.id);
  clearSessionCookie(c);
  return c.json({ isAuthenticated: false, email: null } satisfies AuthStatus);
});

adminApi.post("/change-password", outcome(), adminOnly(), visitor(), async (c) => {
  const session = adminSession(c);
  const body = await readJson(c, changePasswordBody, { maxBytes: BODY_LIMIT });
  const clientKey = c.get("visitor").key;
  try {
    await changePassword(
      c.get("deps").db,
      session,
      { ...body, clientKey, deviceToken: deviceCookie(c) },
      c.get("now"),
    );
  } catch (error) {
    if (error instanceof WrongCurrentPassword) {
      log.warn("admin password change: wrong current password", { clientKey });
      throw refused(400, "wrong_current_password");
    }
    if (error instanceof UnacceptablePassword) throw refused(400, `password_${error.reason}`);
    throw error;
  }
  log.info("admin password changed");
  return c.json({ success: true, message: SUCCESS_TEXTS.passwordChanged } satisfies PasswordChangeAnswer);
});
