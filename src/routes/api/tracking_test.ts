import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";

const visit = {
  source: "/pt-br/?utm_source=google&gclid=Cj0KCQiA",
  sessionId: "1732233600000-k3j4h5",
  utmSource: "google",
  utmCampaign: "launch",
  utmMedium: "cpc",
  utmTerm: "whatsapp crm",
  utmContent: "ad-1",
};
const click = {
  source: "pricing_pro_plan",
  sessionId: "1732233600000-k3j4h5",
  utmSource: "google",
  utmCampaign: null,
  utmMedium: null,
};

async function count(t: TestApp, table: "visits" | "clicks" | "conversions"): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return row.n;
}

appTest(
  "tracking: a visit is stored with its session, UTM fields and a visitor key (not the IP)",
  async (t) => {
    const res = await t.postJson("/api/tracking/visit", visit);
    assert.equal(res.status, 202);
    const rows = await t.db.query<Record<string, unknown>>(
      "select visitor_key, session_id, source, utm_source, utm_campaign, utm_medium, utm_term, utm_content from visits",
    );
    assert.equal(rows.length, 1);
    const { visitor_key, ...rest } = rows[0];
    assert.match(String(visitor_key), /^[0-9a-f]{32}$/);
    assert.deepEqual(rest, {
      session_id: visit.sessionId,
      // Stored under its page key: no click id, no trailing slash (the click id is a flag, click_ids).
      source: "/pt-br?utm_source=google",
      utm_source: "google",
      utm_campaign: "launch",
      utm_medium: "cpc",
      utm_term: "whatsapp crm",
      utm_content: "ad-1",
    });
  },
);

appTest(
  "tracking: a visit keeps its referrer host and click flags, and the touch the server derives",
  async (t) => {
    const arrivals = [
      { referrer: "l.instagram.com", clickIds: { fbclid: true }, entry: true },
      { referrer: "www.google.com.br", clickIds: { gclid: true }, entry: true },
      { referrer: "localhost", entry: false }, // this site: no source
      { referrer: "chatgpt.com", utmSource: "newsletter", utmMedium: "email", entry: true },
    ];
    for (const a of arrivals) {
      const body = { ...visit, utmSource: null, utmCampaign: null, utmMedium: null, ...a };
      assert.equal((await t.postJson("/api/tracking/visit", body)).status, 202);
    }
    assert.equal((await t.postJson("/api/tracking/click", { ...click, referrer: "t.co" })).status, 202);
    const rows = await t.db.query<Record<string, unknown>>(
      `select referrer_host, click_ids, traffic_source, traffic_medium, channel, entry from visits order by id`,
    );
    assert.deepEqual(rows, [
      {
        referrer_host: "l.instagram.com",
        click_ids: ["fbclid"],
        traffic_source: "instagram",
        traffic_medium: "referral",
        channel: "organic_social",
        entry: true,
      },
      {
        referrer_host: "google.com.br",
        click_ids: ["gclid"],
        traffic_source: "google",
        traffic_medium: "cpc",
        channel: "paid_search",
        entry: true,
      },
      {
        referrer_host: null,
        click_ids: null,
        traffic_source: "direto",
        traffic_medium: "(none)",
        channel: "direct",
        entry: false,
      },
      {
        referrer_host: "chatgpt.com",
        click_ids: null,
        traffic_source: "newsletter",
        traffic_medium: "email",
        channel: "email",
        entry: true,
      },
    ]);
    const clicks = await t.db.query("select traffic_source, channel from clicks");
    assert.deepEqual(clicks, [{ traffic_source: "google", channel: "organic_search" }]);
  },
);

/** A lead stored under the tracking session of `click` (the conversion it backs). */
async function leadOfSession(t: TestApp, sessionId = click.sessionId, n = 1) {
  const res = await t.postJson("/api/leads", {
    name: "Maria",
    email: "maria@example.com",
    whatsapp: "11987654321",
    plan: "Pro",
    sessionId,
    idempotencyKey: `lead_${sessionId}_${n}`,
  });
  assert.equal(res.status, 201);
}
appTest(
  "tracking: a visit also stores the address's keys for the next months starting within 61 days (link keys)",
  async (t) => {
    // 3 November 2026 in São Paulo: December starts within 61 days, January (61 days on is 3 January) too.
    assert.equal((await t.postJson("/api/tracking/visit", visit)).status, 202);
    const [row] = await t.db.query<{ visitor_key: string; link_keys: string[] }>(
      "select visitor_key, link_keys from visits",
    );
    assert.equal(row.link_keys.length, 2);
    for (const key of row.link_keys) assert.match(key, /^[0-9a-f]{32}$/);
    assert.notEqual(row.link_keys[0], row.visitor_key);
    const salts = await t.db.query<{ month: string }>("select month from visitor_salts order by month");
    assert.deepEqual(salts.map((s) => s.month), ["2026-11", "2026-12", "2027-01"]);
  },
  { now: () => new Date("2026-11-03T15:00:00Z") },
);

appTest("tracking: clicks and conversions are stored with their source", async (t) => {
  assert.equal((await t.postJson("/api/tracking/click", click)).status, 202);
  await leadOfSession(t);
  const conv = { ...click, source: "pricing_specialist_enterprise" };
  assert.equal((await t.postJson("/api/tracking/conversion", conv)).status, 202);
  const [c] = await t.db.query<{ source: string }>("select source from clicks");
  const [v] = await t.db.query<{ source: string }>("select source from conversions");
  assert.equal(c.source, "pricing_pro_plan");
  assert.equal(v.source, "pricing_specialist_enterprise");
});

appTest("tracking: sendBeacon's text/plain JSON body is accepted", async (t) => {
  const res = await t.request("/api/tracking/visit", {
    method: "POST",
    body: JSON.stringify({ source: "/en/" }),
    headers: { "content-type": "text/plain;charset=UTF-8", origin: "http://localhost:8000" },
  });
  assert.equal(res.status, 202);
  assert.equal(await count(t, "visits"), 1);
});

appTest("tracking: bad input is a 400 naming the field, never stored", async (t) => {
  const cases: [string, unknown, string][] = [
    ["visit", { ...visit, source: "" }, "source"],
    ["visit", { ...visit, source: 7 }, "source"],
    ["visit", { ...visit, source: "/a\u0000b" }, "source"],
    ["visit", { ...visit, source: "/" + "a".repeat(2000) }, "source"],
    ["visit", { ...visit, utmTerm: "t".repeat(201) }, "utmTerm"],
    ["visit", { ...visit, sessionId: "has space" }, "sessionId"],
    ["click", { ...click, utmTerm: "x" }, "body"],
    ["click", { ...click, extra: 1 }, "body"],
    ["conversion", { ...click, utmSource: { a: 1 } }, "utmSource"],
    ["conversion", "[1,2", "body"],
    ["visit", { ...visit, referrer: "https://www.google.com/search?q=x" }, "referrer"],
    ["visit", { ...visit, referrer: "www.google.com/path" }, "referrer"],
    ["visit", { ...visit, referrer: "evil.example:8080" }, "referrer"],
    ["visit", { ...visit, referrer: 12 }, "referrer"],
    ["visit", { ...visit, clickIds: { gclid: "Cj0KCQ" } }, "clickIds.gclid"],
    ["visit", { ...visit, clickIds: { utm_id: true } }, "clickIds"],
    ["visit", { ...visit, entry: "yes" }, "entry"],
    ["click", { ...click, clickIds: [true] }, "clickIds"],
  ];
  for (const [kind, body, field] of cases) {
    const res = await t.postJson(`/api/tracking/${kind}`, body);
    assert.equal(res.status, 400, `${kind} ${JSON.stringify(body).slice(0, 60)}`);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const json = await res.json();
    assert.ok(field in json.fields, `${field} in ${JSON.stringify(json.fields)}`);
  }
  assert.equal(await count(t, "visits") + await count(t, "clicks") + await count(t, "conversions"), 0);
});

appTest("tracking: 413 over 6 KB, 415 for a form body, 403 from another origin", async (t) => {
  const big = await t.postJson("/api/tracking/visit", { ...visit, utmContent: "x".repeat(7000) });
  assert.equal(big.status, 413);
  const form = await t.request("/api/tracking/click", {
    method: "POST",
    body: "source=x",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:8000" },
  });
  assert.equal(form.status, 415);
  const cross = await t.postJson("/api/tracking/click", click, { origin: "https://evil.example" });
  assert.equal(cross.status, 403);
  assert.equal(await count(t, "clicks"), 0);
});

appTest("tracking: bots and headless browsers get 202 but are not counted", async (t) => {
  for (const ua of ["Mozilla/5.0 (compatible; bingbot/2.0)", "Mozilla/5.0 HeadlessChrome/126.0", ""]) {
    const res = await t.postJson("/api/tracking/visit", visit, { "user-agent": ua });
    assert.equal(res.status, 202, ua);
  }
  assert.equal(await count(t, "visits"), 0);
});

appTest("tracking: the 121st event in a minute from one client is 429 with Retry-After", async (t) => {
  for (let i = 0; i < 120; i++) {
    assert.equal(
      (await t.postJson(i % 2 ? "/api/tracking/visit" : "/api/tracking/click", i % 2 ? visit : click)).status,
      202,
    );
  }
  const res = await t.postJson("/api/tracking/conversion", click);
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get("retry-after")) >= 1);
  assert.equal(await count(t, "visits") + await count(t, "clicks"), 120);
}, { now: () => new Date("2026-11-20T15:00:10Z") });

appTest("tracking: a visit at 02:30 UTC belongs to the previous day in São Paulo", async (t) => {
  assert.equal((await t.postJson("/api/tracking/visit", visit)).status, 202);
  const [row] = await t.db.query<{ day: string; utc: string }>(
    `select to_char(occurred_at at time zone $1, 'YYYY-MM-DD') as day,
            to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as utc from visits`,
    [t.deps.config.ANALYTICS_TZ],
  );
  assert.equal(row.utc, "2026-11-21 02:30");
  assert.equal(row.day, "2026-11-20");
}, { now: () => new Date("2026-11-21T02:30:00Z") });

appTest("tracking: a lead at 22:30 in São Paulo stays on that São Paulo day", async (t) => {
  const lead = { name: "Ana", email: "ana@example.com", whatsapp: "11999990000", plan: "Micro" };
  assert.equal((await t.postJson("/api/leads", lead)).status, 201);
  const [row] = await t.db.query<{ day: string }>(
    "select to_char(submitted_at at time zone $1, 'YYYY-MM-DD') as day from leads",
    [t.deps.config.ANALYTICS_TZ],
  );
  assert.equal(row.day, "2026-11-20");
}, { now: () => new Date("2026-11-21T01:30:00Z") });

appTest("tracking: an event keeps its server instant to the millisecond, and its limit window", async (t) => {
  assert.equal((await t.postJson("/api/tracking/click", click)).status, 202);
  const [row] = await t.db.query<{ at: string }>(
    `select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as at from clicks`,
  );
  assert.equal(row.at, "2026-11-21T02:30:07.123000");
  const windows = await t.db.query<{ start: string; hits: number }>(
    `select to_char(window_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as start, hits
       from rate_limits where bucket like 'tracking:%'`,
  );
  assert.deepEqual(windows, [{ start: "2026-11-21T02:30:00.000000", hits: 1 }]);
}, { now: () => new Date("2026-11-21T02:30:07.123Z") });

appTest(
  "tracking: a conversion counts only for a stored lead of its session, never more than its leads",
  async (t) => {
    // 150 conversions from a session with no lead, in parallel: answered 202 (accepted, not counted).
    const none = await Promise.all(
      Array.from(
        { length: 100 },
        () => t.postJson("/api/tracking/conversion", { ...click, sessionId: "s-nolead" }),
      ),
    );
    assert.ok(none.every((r) => r.status === 202));
    assert.equal(await count(t, "conversions"), 0);
    // Without a session id nothing can be matched.
    assert.equal((await t.postJson("/api/tracking/conversion", { ...click, sessionId: null })).status, 202);
    assert.equal(await count(t, "conversions"), 0);
    // Two leads in a session: 20 parallel reports count twice.
    await leadOfSession(t, "s-two", 1);
    await leadOfSession(t, "s-two", 2);
    await Promise.all(
      Array.from(
        { length: 20 },
        () => t.postJson("/api/tracking/conversion", { ...click, sessionId: "s-two" }),
      ),
    );
    assert.equal(await count(t, "conversions"), 2);
    // Another session's lead does not back this one's conversions.
    await t.postJson("/api/tracking/conversion", { ...click, sessionId: "s-other" });
    assert.equal(await count(t, "conversions"), 2);
  },
);

appTest("tracking: a visit's source must be a path on this site", async (t) => {
  for (
    const source of [
      "javascript:alert(1)",
      "data:text/html,hi",
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "pt-br",
    ]
  ) {
    const res = await t.postJson("/api/tracking/visit", { ...visit, source });
    assert.equal(res.status, 400, source);
    assert.ok("source" in (await res.json()).fields, source);
  }
  assert.equal(
    (await t.postJson("/api/tracking/visit", { ...visit, source: "/es/?utm_source=x" })).status,
    202,
  );
  assert.equal(await count(t, "visits"), 1);
});

appTest("tracking: one IPv6 /64 is one visitor and one rate-limit bucket", async (t) => {
  for (let i = 0; i < 120; i++) {
    const res = await t.postJson("/api/tracking/click", click, {
      "x-forwarded-for": `2001:db8:7:7::${i.toString(16)}`,
    });
    assert.equal(res.status, 202);
  }
  const over = await t.postJson("/api/tracking/click", click, {
    "x-forwarded-for": "2001:db8:7:7:dead:beef:0:1",
  });
  assert.equal(over.status, 429);
  const [{ n }] = await t.db.query<{ n: number }>("select count(distinct visitor_key)::int as n from clicks");
  assert.equal(n, 1);
  const other = await t.postJson("/api/tracking/click", click, { "x-forwarded-for": "2001:db8:7:8::1" });
  assert.equal(other.status, 202);
}, { now: () => new Date("2026-11-20T15:00:10Z"), env: { TRUST_PROXY: "1" } });
