// Hostile requests to the site itself: unsupported methods, off-site redirect tricks, traversal to files
// outside static/ and dotfiles, and hostile headers (a 10 KB Accept-Language, spoofed X-Forwarded-For
// while TRUST_PROXY is off, forged origins, request ids and hosts).
import assert from "node:assert/strict";
import { LIMITS } from "../../src/services/rate_limit.ts";
import { MAX_CLIENT_FAILURES } from "../../src/services/auth.ts";
import { ADMIN_EMAIL } from "../admin.ts";
import { type Ctx, type HostileCase, LEAD, send } from "./harness.ts";

const ORIGIN = "http://localhost:8000";

/** Every redirect stays on our origin and is a plain path. */
function sameSiteLocation(res: Response) {
  const location = res.headers.get("location");
  assert.ok(location, "a Location header");
  assert.ok(location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\"), location);
  assert.equal(new URL(location, ORIGIN).origin, ORIGIN, location);
  assert.ok(!/[\r\n]/.test(location));
}

// A source map the build wrote (they exist on disk but are never served).
const SOURCE_MAP = (() => {
  try {
    const name = [...Deno.readDirSync(new URL("../../static/assets/", import.meta.url))]
      .find((e) => e.name.endsWith(".js.map"))?.name;
    return `/assets/${name ?? "home.js.map"}`;
  } catch {
    return "/assets/home.js.map";
  }
})();

// What the files we must never serve contain.
const SECRET_MARKERS =
  /PUBLIC_ORIGIN|create table|"imports"|\[core\]|root:x:|node_modules|sourceMappingURL|"sources"/;

export const SITE_CASES: HostileCase[] = [
  // Unsupported methods: 405 with Allow, never a 404 or 5xx; no CORS grant.
  ...([
    ["PUT", "/api/leads", "GET, HEAD, POST"],
    ["DELETE", "/api/leads", "GET, HEAD, POST"],
    ["PATCH", "/api/tracking/click", "POST"],
    ["GET", "/api/tracking/visit", "POST"],
    ["GET", "/api/meta/event", "POST"],
    ["DELETE", "/api/admin/login", "POST"],
    ["GET", "/api/admin/logout", "POST"],
    ["POST", "/api/leads/export.csv", "GET, HEAD"],
    ["PUT", "/api/admin/lgpd/export", "GET, HEAD"],
    ["OPTIONS", "/api/leads", "GET, HEAD, POST"],
    ["POST", "/pt-br", "GET, HEAD"],
    ["PROPFIND", "/en/clientes", "GET, HEAD"],
    ["DELETE", "/favicon.svg", "GET, HEAD"],
    ["PUT", "/sitemap.xml", "GET, HEAD"],
    ["POST", "/healthz", "GET, HEAD"],
  ] as const).map(([method, path, allow]): HostileCase => ({
    category: "method",
    name: `${method} ${path}`,
    send: (ctx) =>
      ctx.t.request(path, {
        method,
        body: method === "GET" || method === "OPTIONS" || method === "PROPFIND" ? undefined : "{}",
        headers: { "content-type": "application/json", origin: ORIGIN, cookie: ctx.cookie },
      }),
    status: 405,
    check(res) {
      assert.equal(res.headers.get("allow"), allow);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
    },
  })),
  // Open redirects: the paths are 404, the redirects keep their target on our origin.
  ...[
    "//evil.example",
    "//evil.example/pt-br",
    "/\\evil.example",
    "/%2F%2Fevil.example",
    "/%5C%5Cevil.example",
    "/pt-br//evil.example",
    "/PT-BR/%2F%2Fevil.example",
    "/terms-of-use/%2F%2Fevil.example",
    "/%09/evil.example",
    "/https:/evil.example",
    "/pt-br/@evil.example",
  ].map((path): HostileCase => ({
    category: "redirect",
    name: `GET ${path} is not a redirect`,
    send: (ctx) => send.get(ctx, path),
    status: 404,
    check: (res) => assert.equal(res.headers.get("location"), null),
  })),
  ...[
    "/?next=https://evil.example",
    "/?redirect=//evil.example&url=%2F%2Fevil.example",
    "/pipefy-integration?next=//evil.example",
    "/PT-BR?returnTo=https:%2F%2Fevil.example",
    "/admin?to=%0d%0aLocation:%20https://evil.example",
    "/en/clientes/?x=%0d%0aSet-Cookie:%20a=b",
    "/terms-of-use?@evil.example",
  ].map((path): HostileCase => ({
    category: "redirect",
    name: `redirect from ${path.slice(0, 50)} stays on the site`,
    send: (ctx) => send.get(ctx, path),
    status: [301, 302],
    check(res) {
      sameSiteLocation(res);
      assert.equal(res.headers.getSetCookie().length, 0);
    },
  })),
  {
    category: "redirect",
    name: "a spoofed Host header does not leak into the redirect",
    send: (ctx) => send.get(ctx, "/", { host: "evil.example", "x-forwarded-host": "evil.example" }),
    status: 302,
    check: sameSiteLocation,
  },
  // Traversal and dotfiles: only files indexed from static/ at start exist.
  ...[
    "/.env",
    "/.git/config",
    "/.gitignore",
    "/assets/../deno.json",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/assets/%2e%2e/%2e%2e/deno.json",
    "/assets/..%2f..%2fdeno.json",
    "/logos/..%5c..%5cdeno.json",
    "/favicon.svg%00.html",
    "/favicon.svg/",
    "/assets/manifest.json",
    SOURCE_MAP,
    "/migrations/00001_init.sql",
    "/src/app.ts",
    "/deno.json",
    "/static/favicon.svg",
    "/.well-known/../.env",
    "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
  ].map((path): HostileCase => ({
    category: "traversal",
    name: `GET ${path}`,
    send: (ctx) => send.get(ctx, path),
    status: 404,
    check(_res, body) {
      assert.ok(!SECRET_MARKERS.test(body), "no file content");
    },
  })),
  // Hostile headers.
  {
    category: "headers",
    name: "10 KB Accept-Language on the root redirect",
    send: (ctx) => send.get(ctx, "/", { "accept-language": "x-" + "a".repeat(10_240) }),
    status: 302,
    check: (res) => assert.equal(res.headers.get("location"), "/pt-br"),
  },
  {
    category: "headers",
    name: "10 KB Accept-Language of weighted tags on a page",
    send: (ctx) => send.get(ctx, "/en", { "accept-language": "es;q=0.9,".repeat(1100) }),
    status: 200,
  },
  {
    category: "headers",
    name: "garbage Accept-Language, language cookie and country header",
    send: (ctx) =>
      send.get(ctx, "/", {
        "accept-language": ";q=abc,,,*;q=-1,<script>",
        cookie: "lang=<script>alert(1)</script>",
        "cf-ipcountry": "../../etc",
      }),
    status: 302,
    check: (res) => assert.equal(res.headers.get("location"), "/pt-br"),
  },
  {
    category: "headers",
    name: "a hostile X-Request-Id is not echoed",
    send: (ctx) =>
      send.get(ctx, "/api/config", { "x-request-id": "<script>alert(1)</script>" + "a".repeat(500) }),
    status: 200,
    check: (res) => assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/),
  },
  {
    category: "headers",
    name: "spoofed X-Forwarded-For does not reset the login throttle (TRUST_PROXY off)",
    async send(ctx: Ctx) {
      let res!: Response;
      for (let i = 0; i <= MAX_CLIENT_FAILURES; i++) {
        res = await send.json(ctx, "/api/admin/login", { email: ADMIN_EMAIL, password: "wrong-password" }, {
          headers: { "x-forwarded-for": `203.0.113.${i + 1}` },
        });
        if (i < MAX_CLIENT_FAILURES) await res.body?.cancel();
      }
      return res;
    },
    status: 429,
    check: (res) => assert.ok(Number(res.headers.get("retry-after")) > 0),
  },
  {
    category: "headers",
    name: "spoofed X-Forwarded-For does not lift the lead rate limit (TRUST_PROXY off)",
    writes: true,
    async send(ctx: Ctx) {
      let res!: Response;
      for (let i = 0; i <= LIMITS.leads.max; i++) {
        res = await send.json(ctx, "/api/leads", { ...LEAD, name: `Spoof ${i}` }, {
          headers: { "x-forwarded-for": `198.51.100.${i + 1}, 10.0.0.1` },
        });
        if (i < LIMITS.leads.max) await res.body?.cancel();
      }
      return res;
    },
    status: 429,
    async check(_res, _body, ctx) {
      const [{ n }] = await ctx.t.db.query<{ n: number }>(
        "select count(*)::int as n from leads where name like 'Spoof %'",
      );
      assert.equal(n, LIMITS.leads.max);
    },
  },
  ...([
    ["Origin: null", { origin: "null" }],
    ["a look-alike Origin", { origin: `${ORIGIN}.evil.example` }],
    ["no Origin and a cross-site fetch", { origin: "", "sec-fetch-site": "cross-site" }],
    ["a Referer but no Origin", { origin: "", referer: `${ORIGIN}/pt-br` }],
  ] as const).map(([what, headers]): HostileCase => ({
    category: "headers",
    name: `lead from ${what}`,
    send: (ctx) => {
      const h = new Headers({ "content-type": "application/json", ...headers });
      if (!headers.origin) h.delete("origin");
      return ctx.t.request("/api/leads", { method: "POST", body: JSON.stringify(LEAD), headers: h });
    },
    status: 403,
  })),
  {
    category: "headers",
    name: "8 KB of cookies on check-auth",
    send: (ctx) =>
      send.get(ctx, "/api/admin/check-auth", {
        cookie: Array.from({ length: 200 }, (_, i) => `c${i}=${"v".repeat(30)}`).join("; "),
      }),
    status: 200,
    check: (_res, body) => assert.deepEqual(JSON.parse(body), { isAuthenticated: false, email: null }),
  },
];
