import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { readJson } from "../../server/body.ts";
import { clientIp } from "../../server/client_ip.ts";
import { log } from "../../core/log.ts";
import {
  adminGuard,
  adminSession,
  clearSessionCookie,
  deviceCookie,
  loadSession,
  requireAdmin,
  setDeviceCookie,
  setSessionCookie,
} from "../../server/middleware/session.ts";
import {
  BadCredentials,
  changePassword,
  DEVICE_DAYS,
  login,
  UnacceptablePassword,
  WrongCurrentPassword,
} from "../../services/auth.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../services/passwords.ts";
import { invalidateSession } from "../../services/sessions.ts";

const BODY_LIMIT = 4096;

const loginSchema = z.object({
  email: z.string().trim().min(1, "required").max(254, "too long"),
  password: z.string().min(1, "required").max(
    MAX_PASSWORD_LENGTH,
    `at most ${MAX_PASSWORD_LENGTH} characters`,
  ),
});

const changeSchema = z.object({
  currentPassword: z.string().min(1, "required").max(MAX_PASSWORD_LENGTH, "too long"),
  newPassword: z.string()
    .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`),
});

/** Sign-in, session check, sign-out and password change (spec section 7, administrator table). */
export const adminApi = new Hono<AppEnv>();
adminApi.use("*", adminGuard());

adminApi.post("/login", async (c) => {
  const { db, visitorKeys } = c.get("deps");
  const now = c.get("deps").now?.() ?? new Date();
  const body = await readJson(c, loginSchema, { maxBytes: BODY_LIMIT });
  const clientKey = await visitorKeys.key(clientIp(c), now);
  try {
    const { token, session, deviceToken } = await login(db, {
      ...body,
      clientKey,
      deviceToken: deviceCookie(c),
      now,
    });
    setSessionCookie(c, token, session.expiresAt);
    setDeviceCookie(c, deviceToken, DEVICE_DAYS);
    log.info("admin login", { clientKey });
    return c.json({ success: true, message: "Login realizado com sucesso" });
  } catch (error) {
    if (error instanceof BadCredentials) {
      // The client key is the visitor key (a keyed hash of the IP, never the IP): it ties the lines of one
      // attacker together.
      log.warn("admin login failed", { clientKey });
      return c.json({ success: false, message: error.message }, 401);
    }
    throw error;
  }
});

adminApi.get("/check-auth", loadSession(), (c) => {
  const session = c.get("session");
  return c.json({ isAuthenticated: Boolean(session), email: session?.email ?? null });
});

adminApi.post("/logout", loadSession(), async (c) => {
  const session = c.get("session");
  if (session) await invalidateSession(c.get("deps").db, session.id);
  clearSessionCookie(c);
  return c.json({ success: true, message: "Logout realizado com sucesso" });
});

adminApi.post("/change-password", requireAdmin(), async (c) => {
  const session = adminSession(c);
  const body = await readJson(c, changeSchema, { maxBytes: BODY_LIMIT });
  const { db, visitorKeys } = c.get("deps");
  const now = c.get("deps").now?.() ?? new Date();
  const clientKey = await visitorKeys.key(clientIp(c), now);
  try {
    await changePassword(db, session, { ...body, clientKey, deviceToken: deviceCookie(c) }, now);
  } catch (error) {
    if (error instanceof WrongCurrentPassword) {
      log.warn("admin password change: wrong current password", { clientKey });
      return c.json({ success: false, message: error.message }, 400);
    }
    if (error instanceof UnacceptablePassword) {
      return c.json({ success: false, message: error.message, fields: { newPassword: error.message } }, 400);
    }
    throw error;
  }
  log.info("admin password changed");
  return c.json({ success: true, message: "Senha alterada com sucesso" });
});
