// The headers of docs/PRODUCT.md, _Security and privacy_, checked on every kind of answer the app gives:
// pages, the 404 page, redirects, static files, API JSON and every API error status, admin pages and answers,
// the CSV export, health probes, sitemap and robots. Run over http and https origins (HSTS only over https).
import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN, type TestApp, testApp } from "../../../testing/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, seedAdmin, sessionCookieOf } from "../../../testing/admin.ts";
import { LIMITS } from "../../services/rate_limit.ts";

const lead = { name: "Ana", email: "ana@example.com", whatsapp: "11999990000", plan: "Pro" };

interface Kind {
  name: string;
  status: number;
  /** `no-store` required (admin and API answers). */
  noStore: boolean;
  html?: boolean;
  send(t: TestApp, cookie: string): Promise<Response>;
}

const get = (path: string, headers: Record<string, string> = {}) => (t: TestApp) =>
  t.request(path, { headers });
const json = (
  t: TestApp,
  path: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  t.request(path, {
    method,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", origin: t.deps.config.PUBLIC_ORIGIN, ...headers },
  });

const KINDS: Kind[] = [
  { name: "page (pt)", status: 200, noStore: false, html: true, send: get("/pt-br") },
  { name: "page (en)", status: 200, noStore: false, html: true, send: get("/en/clientes") },
  { name: "page (es)", status: 200, noStore: false, html: true, send: get("/es/politica-de-privacidad") },
  { name: "page HEAD", status: 200, noStore: false, send: (t) => t.request("/pt-br", { method: "HEAD" }) },
  { name: "404 page", status: 404, noStore: false, html: true, send: get("/no-such-page") },
  {
    name: "405 on a page",
    status: 405,
    noStore: true,
    send: (t) => t.request("/pt-br", { method: "DELETE" }),
  },
  { name: "root redirect", status: 302, noStore: false, send: get("/") },
  { name: "alias redirect", status: 301, noStore: false, send: get("/pipefy-integration") },
  { name: "static file", status: 200, noStore: false, send: get("/favicon.svg") },
  {
    name: "static file 304",
    status: 304,
    noStore: false,
    send: async (t) => {
      const etag = (await t.request("/favicon.svg")).headers.get("etag")!;
      return await t.request("/favicon.svg", { headers: { "if-none-match": etag } });
    },
  },
  { name: "sitemap", status: 200, noStore: false, send: get("/sitemap.xml") },
  { name: "robots", status: 200, noStore: false, send: get("/robots.txt") },
  { name: "liveness", status: 200, noStore: true, send: get("/healthz") },
  { name: "readiness", status: 200, noStore: true, send: get("/readyz") },
  { name: "API JSON", status: 200, noStore: true, send: get("/api/config") },
  { name: "API 201", status: 201, noStore: true, send: (t) => json(t, "/api/leads", "POST", lead) },
  {
    name: "API 202",
    status: 202,
    noStore: true,
    send: (t) => json(t, "/api/tracking/visit", "POST", { source: "/pt-br" }),
  },
  { name: "API 400", status: 400, noStore: true, send: (t) => json(t, "/api/leads", "POST", {}) },
  { name: "API 401", status: 401, noStore: true, send: get("/api/leads") },
  {
    name: "API 403",
    status: 403,
    noStore: true,
    send: (t) => json(t, "/api/leads", "POST", lead, { origin: "https://evil.example" }),
  },
  { name: "API 404", status: 404, noStore: true, send: get("/api/nothing-here") },
  { name: "API 405", status: 405, noStore: true, send: (t) => json(t, "/api/leads", "PUT", lead) },
  {
    name: "API 413",
    status: 413,
    noStore: true,
    send: (t) => json(t, "/api/leads", "POST", { ...lead, name: "a".repeat(20_000) }),
  },
  {
    name: "API 415",
    status: 415,
    noStore: true,
    send: (t) => json(t, "/api/leads", "POST", lead, { "content-type": "text/html" }),
  },
  {
    name: "API 429",
    status: 429,
    noStore: true,
    send: async (t) => {
      for (let i = 0; i < LIMITS.leads.max; i++) {
        await (await json(t, "/api/leads", "POST", {})).body?.cancel();
      }
      return await json(t, "/api/leads", "POST", lead);
    },
  },
  { name: "admin page", status: 200, noStore: true, html: true, send: get("/pt-br/admin") },
  { name: "admin check-auth", status: 200, noStore: true, send: get("/api/admin/check-auth") },
  {
    name: "admin login 401",
    status: 401,
    noStore: true,
    send: (t) => json(t, "/api/admin/login", "POST", { email: "x@example.com", password: "wrong-password" }),
  },
  {
    name: "admin 403 (not JSON)",
    status: 403,
    noStore: true,
    send: (t) => json(t, "/api/admin/logout", "POST", "{}", { "content-type": "text/plain" }),
  },
  {
    name: "admin leads JSON",
    status: 200,
    noStore: true,
    send: (t, cookie) => getAs(t, cookie, "/api/leads"),
  },
  {
    name: "admin CSV export",
    status: 200,
    noStore: true,
    send: (t, cookie) => getAs(t, cookie, "/api/leads/export.csv"),
  },
  {
    name: "admin LGPD export",
    status: 200,
    noStore: true,
    send: (t, cookie) => getAs(t, cookie, "/api/admin/lgpd/export?email=ana@example.com"),
  },
];

function getAs(t: TestApp, cookie: string, path: string) {
  return t.request(path, { headers: { cookie } });
}

function checkHeaders(kind: Kind, res: Response, https: boolean): void {
  const h = res.headers;
  const where = `${kind.name} (${https ? "https" : "http"})`;
  assert.equal(res.status, kind.status, where);
  const csp = h.get("content-security-policy") ?? "";
  assert.match(
    csp,
    /script-src (?:'sha256-[A-Za-z0-9+/]{43}=' )*'strict-dynamic' /,
    `${where}: CSP script-src`,
  );
  assert.ok(!csp.includes("'nonce-") && !csp.includes("'unsafe-inline' 'strict"), `${where}: hashes only`);
  for (
    const directive of [
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "default-src 'self'",
    ]
  ) {
    assert.ok(csp.includes(directive), `${where}: CSP ${directive}`);
  }
  assert.ok(!/unsafe-eval/.test(csp), `${where}: no unsafe-eval`);
  assert.equal(h.get("x-content-type-options"), "nosniff", where);
  assert.equal(h.get("referrer-policy"), "strict-origin-when-cross-origin", where);
  assert.match(h.get("permissions-policy") ?? "", /camera=\(\), microphone=\(\), geolocation=\(\)/, where);
  assert.equal(h.get("x-frame-options"), "DENY", where);
  assert.equal(h.get("x-powered-by"), null, where);
  assert.equal(h.get("server"), null, where);
  assert.equal(
    h.get("strict-transport-security"),
    https ? "max-age=31536000; includeSubDomains" : null,
    `${where}: HSTS only over https`,
  );
  if (kind.noStore) assert.equal(h.get("cache-control"), "no-store", `${where}: no-store`);
}

for (const https of [false, true]) {
  const origin = https ? "https://www.example.com" : TEST_ORIGIN;
  appTest(
    `headers: every kind of answer carries the security headers (${https ? "https" : "http"})`,
    async (t) => {
      await seedAdmin(t.db);
      const login = await json(t, "/api/admin/login", "POST", {
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
      });
      const cookie = sessionCookieOf(login)!;
      assert.ok(cookie, "signed in");
      for (const kind of KINDS) {
        const res = await kind.send(t, cookie);
        checkHeaders(kind, res, https);
        await res.body?.cancel();
      }
    },
    { env: { PUBLIC_ORIGIN: origin } },
  );
}

/** The CSP source of a script's text, computed here apart from the app's own code. */
async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

appTest(
  "headers: a page's CSP allows by hash exactly the inline scripts it runs; no script needs a nonce",
  async (t) => {
    const answers = new Map<string, string>();
    for (const path of ["/pt-br", "/pt-br", "/en/admin", "/es/trello-whatsapp-integracao", "/en/nowhere"]) {
      const res = await t.request(path);
      const csp = res.headers.get("content-security-policy")!;
      const allowed = csp.match(/script-src ([^;]*)/)![1].split(" ").filter((s) => s.startsWith("'sha256-"));
      const html = await res.text();
      // Nothing varies per response: a second answer for a page is the same policy and the same bytes.
      if (answers.has(path)) assert.equal(csp + html, answers.get(path), `${path} answered twice`);
      answers.set(path, csp + html);
      const running: string[] = [];
      for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        assert.ok(!/\bnonce=|\bsrc=/.test(attributes), `${path}: <script${attributes}>`);
        if (/type="application\/(ld\+)?json"/.test(attributes)) continue; // data, never run
        running.push(await sha256Source(text));
      }
      assert.ok(running.length > 0, `${path}: the loader at least`);
      assert.deepEqual(new Set(allowed), new Set(running), path);
    }
  },
);

appTest("headers: an API path answers 405 with Allow for a method it does not serve", async (t) => {
  for (
    const [method, path, allow] of [
      ["PUT", "/api/leads", "GET, HEAD, POST"],
      ["DELETE", "/api/tracking/visit", "POST"],
      ["POST", "/api/leads/export.csv", "GET, HEAD"],
      ["PATCH", "/api/admin/lgpd/leads", "DELETE, GET, HEAD"],
      ["POST", "/api/config", "GET, HEAD"],
    ]
  ) {
    const res = await json(t, path, method, {});
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.headers.get("allow"), allow, `${method} ${path}`);
    assert.deepEqual(await res.json(), { error: "method_not_allowed", allow: allow.split(", ") });
  }
});

Deno.test({
  name: "headers: the real server sends no Server or X-Powered-By banner",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await testApp("pglite");
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
    try {
      for (const path of ["/pt-br", "/api/config", "/favicon.svg", "/api/nope"]) {
        const res = await fetch(`http://127.0.0.1:${server.addr.port}${path}`);
        await res.body?.cancel();
        assert.equal(res.headers.get("server"), null, path);
        assert.equal(res.headers.get("x-powered-by"), null, path);
      }
    } finally {
      await server.shutdown();
    }
  },
});

appTest(
  "headers: CSP_EXTRA_SOURCES adds the site owner's tag hosts to the directives they name, and only there",
  async (t) => {
    const res = await t.request("/pt-br");
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const csp = Object.fromEntries(
      res.headers.get("content-security-policy")!.split("; ").map((d) => [d.split(" ")[0], d]),
    );
    assert.ok(csp["script-src"].includes(" https://www.googleadservices.com"), csp["script-src"]);
    assert.ok(csp["img-src"].includes(" https://www.googleadservices.com"), csp["img-src"]);
    assert.ok(csp["img-src"].includes(" https://*.doubleclick.net"), csp["img-src"]);
    assert.ok(csp["connect-src"].includes(" https://www.googleadservices.com"), csp["connect-src"]);
    assert.ok(csp["frame-src"].includes(" https://td.doubleclick.net"), csp["frame-src"]);
    assert.ok(!csp["script-src"].includes("doubleclick"), "img= and frame= stay in their directives");
    assert.ok(!csp["connect-src"].includes("doubleclick"));
    // The tag manager's own hosts are still there, and the defaults are untouched.
    assert.ok(csp["script-src"].includes("https://www.googletagmanager.com"));
    assert.equal(csp["default-src"], "default-src 'self'");
  },
  {
    env: {
      GTM_ID: "GTM-ABC123",
      CSP_EXTRA_SOURCES:
        "https://www.googleadservices.com img=https://*.doubleclick.net frame=https://td.doubleclick.net",
    },
  },
);
