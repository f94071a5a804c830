// Hostile requests to the administrator's sign-in and session: replayed, tampered and expired cookies,
// cross-origin use of a valid cookie, passwords refused by size before any hashing, and new passwords the
// password rule refuses.
import { ERROR_TEXTS } from "../../src/shared/admin_messages.ts";
import assert from "node:assert/strict";
import { insertSession } from "../../src/db/sessions.ts";
import { sessionIdOf } from "../../src/services/sessions.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, sessionCookieOf } from "../admin.ts";
import { type Ctx, type HostileCase, send } from "./harness.ts";

/** A second, throw-away session (so the suite's own session stays alive). */
async function freshSession(ctx: Ctx): Promise<string> {
  const res = await send.json(ctx, "/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(res.status, 200);
  return sessionCookieOf(res)!;
}

/** A cookie replayed after its session signed out. */
async function loggedOut(ctx: Ctx): Promise<string> {
  const cookie = await freshSession(ctx);
  const out = await send.json(ctx, "/api/admin/logout", {}, { headers: { cookie } });
  assert.equal(out.status, 200);
  return cookie;
}

const tokenOf = (cookie: string) => cookie.slice("admin_session=".length);
const flip = (token: string) => token.slice(0, -1) + (token.endsWith("a") ? "b" : "a");
const ADMIN_GETS = [
  "/api/leads",
  "/api/leads/export.csv",
  "/api/tracking/stats",
  "/api/admin/lgpd/leads?email=a@b.co",
];

const unauthorized = (res: Response, text: string) => {
  assert.deepEqual(JSON.parse(text), { error: "unauthorized" });
  assert.equal(res.headers.get("cache-control"), "no-store");
};

export const AUTH_CASES: HostileCase[] = [
  // Sessions.
  ...ADMIN_GETS.map((path): HostileCase => ({
    category: "session",
    name: `cookie replayed after logout on ${path.split("?")[0]}`,
    prepare: loggedOut,
    send: (ctx, cookie) => ctx.t.request(path, { headers: { cookie: cookie as string } }),
    status: 401,
    check: unauthorized,
  })),
  {
    category: "session",
    name: "cookie replayed after logout: check-auth says signed out",
    prepare: loggedOut,
    send: (ctx, cookie) => ctx.t.request("/api/admin/check-auth", { headers: { cookie: cookie as string } }),
    status: 200,
    check: (_res, text) => assert.deepEqual(JSON.parse(text), { isAuthenticated: false, email: null }),
  },
  {
    category: "session",
    name: "cookie replayed after logout cannot erase leads",
    prepare: loggedOut,
    send: (ctx, cookie) =>
      send.json(ctx, "/api/admin/lgpd/leads", { ids: ctx.leadIds }, {
        method: "DELETE",
        headers: { cookie: cookie as string },
      }),
    status: 401,
  },
  ...([
    ["tampered (last character changed)", (ctx: Ctx) => `admin_session=${flip(tokenOf(ctx.cookie))}`],
    ["upper-cased", (ctx: Ctx) => ctx.cookie.toUpperCase().replace("ADMIN_SESSION", "admin_session")],
    ["truncated", (ctx: Ctx) => ctx.cookie.slice(0, -3)],
    ["8 KB long", () => `admin_session=${"a".repeat(8192)}`],
    ["percent-garbage", () => "admin_session=%%%ff%00; ;;=; admin_session"],
    [
      "the session id (hash) instead of the token",
      (ctx: Ctx) => `admin_session=${sessionIdOf(tokenOf(ctx.cookie))}`,
    ],
    ["SQL", () => "admin_session=' OR '1'='1"],
  ] as const).map(([what, cookie]): HostileCase => ({
    category: "session",
    name: `${what} session cookie`,
    send: (ctx) => ctx.t.request("/api/leads", { headers: { cookie: cookie(ctx) } }),
    status: 401,
    check: unauthorized,
  })),
  {
    category: "session",
    name: "expired session cookie is refused and its row removed",
    writes: true,
    async prepare(ctx) {
      const token = "abcdefghijklmnopqrstuvwxyz234567";
      const now = ctx.t.deps.now!();
      await insertSession(ctx.t.db, sessionIdOf(token), ctx.adminId, new Date(now.getTime() - 1000), now);
      return token;
    },
    send: (ctx, token) => ctx.t.request("/api/leads", { headers: { cookie: `admin_session=${token}` } }),
    status: 401,
    async check(res, _text, ctx, token) {
      assert.match(res.headers.getSetCookie().join(), /admin_session=;/, "the dead cookie is cleared");
      const rows = await ctx.t.db.query("select 1 from sessions where id = $1", [
        sessionIdOf(token as string),
      ]);
      assert.equal(rows.length, 0);
    },
  },
  {
    category: "session",
    name: "a valid cookie from another origin cannot erase leads (CSRF)",
    send: (ctx) =>
      send.adminJson(ctx, "/api/admin/lgpd/leads", { ids: ctx.leadIds }, "DELETE", {
        origin: "https://evil.example",
      }),
    status: 403,
  },
  {
    category: "session",
    name: "a valid cookie with a form body cannot erase leads (CSRF)",
    send: (ctx) =>
      ctx.t.request("/api/admin/lgpd/leads", {
        method: "DELETE",
        body: "ids=1",
        headers: {
          cookie: ctx.cookie,
          "content-type": "application/x-www-form-urlencoded",
          origin: ctx.t.deps.config.PUBLIC_ORIGIN,
        },
      }),
    status: 403,
  },
  {
    category: "session",
    name: "a bearer token instead of the cookie",
    send: (ctx) =>
      ctx.t.request("/api/leads", { headers: { authorization: `Bearer ${tokenOf(ctx.cookie)}` } }),
    status: 401,
  },
  // Passwords: refused by size before any hashing.
  {
    category: "password",
    name: "1 MB password at login",
    send: (ctx) => send.json(ctx, "/api/admin/login", { email: ADMIN_EMAIL, password: "p".repeat(1 << 20) }),
    status: 413,
  },
  {
    category: "password",
    name: "129-character password at login",
    send: (ctx) => send.json(ctx, "/api/admin/login", { email: ADMIN_EMAIL, password: "p".repeat(129) }),
    status: 400,
    fields: ["password"],
  },
  {
    category: "password",
    name: "1 MB new password",
    send: (ctx) =>
      send.adminJson(ctx, "/api/admin/change-password", {
        currentPassword: ADMIN_PASSWORD,
        newPassword: "n".repeat(1 << 20),
      }),
    status: 413,
  },
  {
    category: "password",
    name: "129-character new password",
    send: (ctx) =>
      send.adminJson(ctx, "/api/admin/change-password", {
        currentPassword: ADMIN_PASSWORD,
        newPassword: "n".repeat(129),
      }),
    status: 400,
    fields: ["newPassword"],
  },
  // New passwords: one rule (services/password_rule.ts); each refusal is a 400 naming the reason, and the
  // password stays as it was (the admins table is in the snapshot).
  ...([
    ["eight spaces", "        ", "password_blank"],
    ["tabs and no-break spaces", "\t \u00a0\t \u00a0\t ", "password_blank"],
    ["the current one in capitals", ADMIN_PASSWORD.toUpperCase(), "password_same_as_current"],
    ["the current one padded with spaces", `  ${ADMIN_PASSWORD}  `, "password_same_as_current"],
    ["password123", "password123", "password_too_common"],
    ["a club and a year", "flamengo2024", "password_too_weak"],
    ["128 times one letter", "a".repeat(128), "password_too_weak"],
  ] as const).map(([what, newPassword, code]): HostileCase => ({
    category: "password",
    name: `new password: ${what}`,
    send: (ctx) =>
      send.adminJson(ctx, "/api/admin/change-password", { currentPassword: ADMIN_PASSWORD, newPassword }),
    status: 400,
    check: (_res, body) =>
      assert.deepEqual(JSON.parse(body), { success: false, error: code, message: ERROR_TEXTS[code] }),
  })),
  {
    category: "password",
    name: "password change without a session",
    send: (ctx) =>
      send.json(ctx, "/api/admin/change-password", {
        currentPassword: ADMIN_PASSWORD,
        newPassword: "new-password-1",
      }),
    status: 401,
  },
  {
    category: "password",
    name: "login with SQL in the e-mail",
    send: (ctx) => send.json(ctx, "/api/admin/login", { email: "' OR 1=1 --", password: "x" }),
    status: 401,
    check: (res) => assert.equal(sessionCookieOf(res), undefined),
  },
  {
    category: "password",
    name: "login with a 300-character e-mail",
    send: (ctx) =>
      send.json(ctx, "/api/admin/login", { email: "a".repeat(290) + "@example.com", password: "x" }),
    status: 400,
    fields: ["email"],
  },
  {
    category: "password",
    name: "login with NUL in e-mail and password",
    send: (ctx) =>
      send.json(ctx, "/api/admin/login", { email: "admin@example.com\u0000", password: "x\u0000" }),
    status: 400,
    fields: ["email", "password"],
  },
  {
    category: "password",
    name: "login with a lone surrogate password",
    send: (ctx) => send.json(ctx, "/api/admin/login", `{"email":"${ADMIN_EMAIL}","password":"\\ud800"}`),
    status: 400,
    fields: ["password"],
  },
  {
    category: "password",
    name: "login with arrays for e-mail and password",
    send: (ctx) => send.json(ctx, "/api/admin/login", { email: [ADMIN_EMAIL], password: [ADMIN_PASSWORD] }),
    status: 400,
    fields: ["email", "password"],
  },
  {
    category: "password",
    name: "login with a __proto__ body",
    send: (ctx) =>
      send.json(ctx, "/api/admin/login", `{"__proto__":{"email":"${ADMIN_EMAIL}","password":"x"}}`),
    status: 400,
    fields: ["email", "password"],
  },
  {
    category: "password",
    name: "login body with invalid UTF-8",
    send: (ctx) =>
      send.bytes(ctx, "/api/admin/login", new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])),
    status: 400,
    fields: ["body"],
  },
];
