// The API's contract with the site and the dashboard as the product defines it: every endpoint of the public
// and administrator tables, called as the browser calls it, answers the fields those tables name, with
// their types (extra fields beside them are allowed). Written from the product's field names, not from
// shared/schemas.ts, so a schema that drifts with the server cannot hide a broken contract.
import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN, type TestApp } from "../../../testing/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, getAs, seedAdmin, sessionCookieOf } from "../../../testing/admin.ts";

type Kind = "string" | "number" | "boolean" | "string|null";
type Shape = Record<string, Kind>;

/** `value` is an object with every field of `shape`, each of its type. */
function assertFields(value: unknown, shape: Shape, where: string): void {
  assert.ok(value !== null && typeof value === "object" && !Array.isArray(value), `${where}: not an object`);
  const record = value as Record<string, unknown>;
  for (const [field, kind] of Object.entries(shape)) {
    assert.ok(Object.hasOwn(record, field), `${where}: no field ${field} in ${JSON.stringify(value)}`);
    const v = record[field];
    const type = v === null ? "null" : typeof v;
    const ok = kind === "string|null" ? type === "null" || type === "string" : type === kind;
    assert.ok(ok, `${where}: ${field} should be ${kind}, is ${JSON.stringify(v)}`);
  }
}

/** A non-empty list whose every item has the fields (an empty list would prove nothing). */
function assertItems(value: unknown, shape: Shape, where: string): void {
  assert.ok(Array.isArray(value), `${where}: not a list`);
  assert.ok(value.length > 0, `${where}: empty list, nothing checked`);
  value.forEach((item, i) => assertFields(item, shape, `${where}[${i}]`));
}

/** The outcome of a sign-in or a password change: `success` as expected and a human `message`. */
function assertOutcome(body: unknown, success: boolean, where: string): void {
  assertFields(body, { success: "boolean", message: "string" }, where);
  const { success: got, message } = body as { success: boolean; message: string };
  assert.equal(got, success, `${where}: success`);
  // A sentence for a person, in Portuguese, not an error code.
  assert.ok(message.length > 5 && /\s/.test(message), `${where}: message ${JSON.stringify(message)}`);
}

async function json(res: Response, status: number, where: string): Promise<unknown> {
  const text = await res.text();
  assert.equal(res.status, status, `${where}: ${text}`);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/, where);
  return JSON.parse(text);
}

async function ok(res: Promise<Response>, where: string): Promise<void> {
  const r = await res;
  const text = await r.text();
  assert.ok(r.ok, `${where}: ${r.status} ${text}`);
}

const NOW = new Date("2026-11-20T15:00:00Z"); // 12:00 in São Paulo
const PIXEL = "123456789012345";
const DAILY: Shape = { date: "string", count: "number" };
const STATS: Shape = { clicks: "number", conversions: "number", rate: "number" };

/** A visitor's session on the pricing page, through the public calls: visit, click, lead, conversion, event. */
async function visitorConverts(t: TestApp): Promise<void> {
  const utm = { utmSource: "google", utmCampaign: "black-friday", utmMedium: "cpc" };
  const sessionId = "contract-session-1";
  await ok(
    t.postJson("/api/tracking/visit", {
      source: "/pt-br/?utm_source=google",
      sessionId,
      ...utm,
      utmTerm: "whatsapp crm",
      utmContent: "banner",
    }),
    "POST /api/tracking/visit",
  );
  await ok(
    t.postJson("/api/tracking/click", { source: "pricing_pro_plan", sessionId, ...utm }),
    "POST /api/tracking/click",
  );
  const eventId = `lead_${NOW.getTime()}_abc123`;
  await ok(
    t.postJson("/api/leads", {
      name: "Maria Souza",
      email: "maria@empresa.com.br",
      whatsapp: "(11) 98765-4321",
      plan: "Pro",
      ...utm,
      sessionId,
      eventId,
    }),
    "POST /api/leads",
  );
  await ok(
    t.postJson("/api/tracking/conversion", { source: "pricing_pro_plan", sessionId, ...utm }),
    "POST /api/tracking/conversion",
  );
  await ok(
    t.postJson("/api/meta/event", {
      eventName: "Lead",
      eventSourceUrl: `${TEST_ORIGIN}/pt-br/`,
      customData: { content_name: "Pro" },
      eventId,
    }),
    "POST /api/meta/event",
  );
}

appTest(
  "contract: every endpoint of the public and administrator tables answers the fields named",
  async (t) => {
    await seedAdmin(t.db);

    // Public.
    const config = await json(await t.request("/api/config"), 200, "GET /api/config");
    assertFields(config, { metaPixelId: "string" }, "GET /api/config");
    assert.equal((config as { metaPixelId: string }).metaPixelId, PIXEL);
    await visitorConverts(t);

    // Administrator: sign-in, refused and accepted.
    const wrong = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: "not the password" });
    assertOutcome(await json(wrong, 401, "login, wrong password"), false, "login, wrong password");
    const blank = await t.postJson("/api/admin/login", { email: "", password: "" });
    assertOutcome(await json(blank, 400, "login, blank fields"), false, "login, blank fields");
    const foreign = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, {
      origin: "https://evil.example",
    });
    assertOutcome(await json(foreign, 403, "login from another origin"), false, "login from another origin");
    const login = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assertOutcome(await json(login, 200, "login"), true, "login");
    const cookie = sessionCookieOf(login)!;
    assert.ok(cookie, "login sets the session cookie");

    const auth = await json(await getAs(t, cookie, "/api/admin/check-auth"), 200, "check-auth");
    assertFields(auth, { isAuthenticated: "boolean", email: "string" }, "GET /api/admin/check-auth");
    assert.deepEqual(auth, { isAuthenticated: true, email: ADMIN_EMAIL });
    const anonymous = await json(await t.request("/api/admin/check-auth"), 200, "check-auth, signed out");
    assertFields(anonymous, { isAuthenticated: "boolean", email: "string|null" }, "check-auth, signed out");

    // The dashboard's reads.
    const range = "startDate=2026-11-01&endDate=2026-11-30";
    const leads = await json(await getAs(t, cookie, "/api/leads"), 200, "GET /api/leads");
    assertItems(leads, {
      id: "number",
      name: "string",
      email: "string",
      whatsapp: "string",
      plan: "string",
      submittedAt: "string",
      utmSource: "string|null",
      utmCampaign: "string|null",
      utmMedium: "string|null",
    }, "GET /api/leads");
    assert.ok(!Number.isNaN(Date.parse((leads as { submittedAt: string }[])[0].submittedAt)), "submittedAt");
    for (const path of ["/api/leads/analytics?days=30", "/api/tracking/analytics?days=30"]) {
      assertItems(await json(await getAs(t, cookie, path), 200, path), DAILY, `GET ${path}`);
    }
    const unique = `/api/tracking/unique-visits?${range}`;
    assertItems(await json(await getAs(t, cookie, unique), 200, unique), DAILY, `GET ${unique}`);
    for (const path of ["/api/tracking/stats", `/api/tracking/stats?${range}`]) {
      const stats = await json(await getAs(t, cookie, path), 200, path);
      assertFields(stats, STATS, `GET ${path}`);
      assert.deepEqual(stats, { clicks: 1, conversions: 1, rate: 100 }, path);
    }
    const lists: [string, Shape][] = [
      ["rankings/utm-source", { utmSource: "string", visits: "number" }],
      ["rankings/utm-campaign", { utmCampaign: "string", visits: "number" }],
      ["rankings/pages", { page: "string", visits: "number" }],
      ["conversion-by-utm-source", {
        utmSource: "string",
        clicks: "number",
        conversions: "number",
        rate: "number",
      }],
    ];
    for (const [path, shape] of lists) {
      const url = `/api/tracking/${path}?${range}`;
      assertItems(await json(await getAs(t, cookie, url), 200, url), shape, `GET ${url}`);
    }

    // Password change, refused and accepted, then the sign-out.
    const change = (body: unknown, headers: Record<string, string> = { cookie }) =>
      t.postJson("/api/admin/change-password", body, headers);
    const newPassword = "violet lantern orbit 42";
    const badCurrent = await change({ currentPassword: "not the password", newPassword });
    assertOutcome(await json(badCurrent, 400, "change-password, wrong current"), false, "wrong current");
    const short = await change({ currentPassword: ADMIN_PASSWORD, newPassword: "short" });
    assertOutcome(await json(short, 400, "change-password, short"), false, "change-password, short");
    const signedOut = await change({ currentPassword: ADMIN_PASSWORD, newPassword }, {});
    assertOutcome(await json(signedOut, 401, "change-password, no session"), false, "no session");
    const changed = await change({ currentPassword: ADMIN_PASSWORD, newPassword });
    assertOutcome(await json(changed, 200, "change-password"), true, "change-password");
    await ok(t.postJson("/api/admin/logout", {}, { cookie }), "POST /api/admin/logout");
  },
  {
    now: () => NOW,
    env: { META_PIXEL_ID: PIXEL, META_ACCESS_TOKEN: "t", META_GRAPH_URL: "http://127.0.0.1:9/v1" },
  },
);

appTest("contract: a throttled sign-in still says success and message", async (t) => {
  await seedAdmin(t.db);
  let res!: Response;
  for (let i = 0; i < 6; i++) {
    res = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: `wrong ${i}` });
    if (i < 5) await res.body?.cancel();
  }
  const body = await json(res, 429, "sixth failed login");
  assertOutcome(body, false, "sixth failed login");
  assert.equal((body as { error: string }).error, "rate_limited");
}, { now: () => NOW });
