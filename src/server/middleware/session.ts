import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { Forbidden, Unauthorized } from "../../core/errors.ts";
import { assertSameOrigin } from "./same_origin.ts";
import { type Session, validateSessionToken } from "../../services/sessions.ts";

/** Name of the administrator's session cookie (with the `__Host-` prefix over https). */
export const SESSION_COOKIE = "admin_session";
/** Name of the device cookie of a browser that signed in before (services/auth.ts, login throttling). */
export const DEVICE_COOKIE = "admin_device";

function isHttps(c: Context<AppEnv>): boolean {
  return c.get("deps").config.PUBLIC_ORIGIN.startsWith("https:");
}

/**
 * Over https a cookie is named `__Host-…`: the browser then accepts it only if Secure, from this exact host,
 * with Path=/ and no Domain, so a sibling subdomain cannot plant or shadow it.
 */
export function cookieName(c: Context<AppEnv>, base: string): string {
  return isHttps(c) ? `__Host-${base}` : base;
}

/** Sends the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when the public origin is https. */
export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: Date): void {
  setCookie(c, cookieName(c, SESSION_COOKIE), token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: isHttps(c),
    expires: expiresAt,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - c.get("now").getTime()) / 1000)),
  });
}

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, cookieName(c, SESSION_COOKIE), { path: "/", secure: isHttps(c) });
}

/** The device cookie: same attributes as the session cookie, kept for `days`. */
export function setDeviceCookie(c: Context<AppEnv>, token: string, days: number): void {
  setCookie(c, cookieName(c, DEVICE_COOKIE), token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: isHttps(c),
    maxAge: days * 86_400,
  });
}

/** The device token the browser sent, if any. */
export function deviceCookie(c: Context<AppEnv>): string | null {
  return getCookie(c, cookieName(c, DEVICE_COOKIE)) ?? null;
}

/**
 * Resolves the session cookie (if any) into `c.var.session`, re-sending the cookie when the session was
 * extended and clearing it when it is dead. Never refuses a request itself.
 */
export function loadSession(): MiddlewareHandler<AppEnv> {
  return async function loadSessionMiddleware(c, next) {
    const token = getCookie(c, cookieName(c, SESSION_COOKIE));
    if (token) {
      const result = await validateSessionToken(c.get("deps").db, token, c.get("now"));
      if (result) {
        c.set("session", result.session);
        if (result.renewed) setSessionCookie(c, token, result.session.expiresAt);
      } else {
        clearSessionCookie(c);
      }
    }
    await next();
  };
}

/** The current session inside a route guarded by `adminOnly()`. */
export function adminSession(c: Context<AppEnv>): Session {
  const session = c.get("session");
  if (!session) throw new Unauthorized();
  return session;
}

/**
 * Every admin response: `Cache-Control: no-store`; state-changing requests must be JSON from our own origin
 * (docs/PRODUCT.md, _Security and privacy_: Hono's csrf() ignores JSON requests, so this checks both), else
 * 403. Alone it guards the routes that work without a session (sign-in, session check, sign-out); the rest
 * use `adminOnly()`.
 */
export function adminGuard(): MiddlewareHandler<AppEnv> {
  return async function adminGuardMiddleware(c, next) {
    const safe = c.req.method === "GET" || c.req.method === "HEAD";
    if (!safe) {
      assertSameOrigin(c, c.get("deps").config.PUBLIC_ORIGIN);
      const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (type !== "application/json") throw new Forbidden("admin requests must be application/json");
    }
    try {
      await next();
    } finally {
      c.header("cache-control", "no-store");
    }
  };
}

/**
 * Admin-only routes, in one middleware: the admin guard above, then a valid session or 401 JSON (the
 * session is then in `c.var.session`, see `adminSession`).
 */
export function adminOnly(): MiddlewareHandler<AppEnv> {
  const guard = adminGuard();
  const load = loadSession();
  return async function adminOnlyMiddleware(c, next) {
    await guard(c, async () => {
      await load(c, async () => {
        if (!c.get("session")) throw new Unauthorized();
        await next();
      });
    });
  };
}
