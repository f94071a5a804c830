import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";

const good = {
  name: "  Maria Souza ",
  email: "maria@example.com.br",
  whatsapp: "(11) 98765-4321",
  plan: "Pro",
  utmSource: "instagram",
  utmCampaign: "black-friday",
  utmMedium: "cpc",
};

async function leads(t: TestApp) {
  return await t.db.query<Record<string, unknown>>(
    "select name, email, whatsapp, plan, plan_label, utm_source, utm_campaign, utm_medium from leads order by id",
  );
}

async function expect400(res: Response, field: string) {
  assert.equal(res.status, 400);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assert.equal(body.error, "validation");
  assert.ok(field in body.fields, `expected ${field} in ${JSON.stringify(body.fields)}`);
}

appTest("leads: stores a valid lead trimmed, with its UTM origin, and answers 201 with the id", async (t) => {
  const res = await t.postJson("/api/leads", good);
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const { id } = await res.json();
  assert.equal(typeof id, "number");
  assert.deepEqual(await leads(t), [{
    name: "Maria Souza",
    email: "maria@example.com.br",
    whatsapp: "(11) 98765-4321",
    plan: "pro",
    plan_label: "Pro",
    utm_source: "instagram",
    utm_campaign: "black-friday",
    utm_medium: "cpc",
  }]);
});

appTest("leads: maps plan display names to micro, pro, premium, enterprise and unknown", async (t) => {
  const cases: [string, string][] = [
    ["Micro", "micro"],
    ["Plano Pro", "pro"],
    ["Premium", "premium"],
    ["Especialista", "enterprise"],
    ["Gold", "unknown"],
    ["", "unknown"],
  ];
  for (const [plan] of cases) {
    assert.equal((await t.postJson("/api/leads", { ...good, plan })).status, 201);
  }
  assert.deepEqual((await leads(t)).map((r) => r.plan), cases.map(([, v]) => v));
});

appTest("leads: missing UTM values are stored as null", async (t) => {
  const { utmSource: _s, utmCampaign: _c, utmMedium: _m, ...plain } = good;
  assert.equal((await t.postJson("/api/leads", { ...plain, utmSource: "" })).status, 201);
  const [row] = await leads(t);
  assert.equal(row.utm_source, null);
  assert.equal(row.utm_medium, null);
});

appTest("leads: a re-send with the same idempotency key is stored once and gets the same id", async (t) => {
  const body = { ...good, idempotencyKey: "lead_1700000000000_abc123" };
  const first = await t.postJson("/api/leads", body);
  const second = await t.postJson("/api/leads", body);
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal((await first.json()).id, (await second.json()).id);
  assert.equal((await leads(t)).length, 1);
});

appTest("leads: rejects a blank name, a bad e-mail and a missing WhatsApp, naming each field", async (t) => {
  const res = await t.postJson("/api/leads", {
    ...good,
    name: "   ",
    email: "maria@example",
    whatsapp: undefined,
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.deepEqual(Object.keys(body.fields).sort(), ["email", "name", "whatsapp"]);
  assert.equal((await leads(t)).length, 0);
});

appTest("leads: rejects e-mails with spaces and values over their length limits", async (t) => {
  await expect400(await t.postJson("/api/leads", { ...good, email: "ma ria@example.com" }), "email");
  await expect400(await t.postJson("/api/leads", { ...good, name: "a".repeat(121) }), "name");
  await expect400(await t.postJson("/api/leads", { ...good, email: "a".repeat(250) + "@x.co" }), "email");
  await expect400(await t.postJson("/api/leads", { ...good, whatsapp: "1".repeat(41) }), "whatsapp");
  await expect400(await t.postJson("/api/leads", { ...good, utmSource: "u".repeat(201) }), "utmSource");
  assert.equal((await t.postJson("/api/leads", { ...good, name: "a".repeat(120) })).status, 201);
});

appTest("leads: rejects wrong types, unknown keys, NUL and control characters", async (t) => {
  await expect400(await t.postJson("/api/leads", { ...good, name: 42 }), "name");
  await expect400(await t.postJson("/api/leads", { ...good, utmCampaign: ["a"] }), "utmCampaign");
  await expect400(await t.postJson("/api/leads", { ...good, isAdmin: true }), "body");
  await expect400(await t.postJson("/api/leads", { ...good, name: "Maria\u0000" }), "name");
  await expect400(await t.postJson("/api/leads", { ...good, whatsapp: "11\u001b9876" }), "whatsapp");
  await expect400(
    await t.postJson("/api/leads", { ...good, idempotencyKey: "no spaces allowed" }),
    "idempotencyKey",
  );
  await expect400(await t.postJson("/api/leads", [good]), "body");
  await expect400(await t.postJson("/api/leads", "null"), "body");
  await expect400(await t.postJson("/api/leads", "{not json"), "body");
  assert.equal((await leads(t)).length, 0);
});

appTest("leads: 413 over 16 KB, 415 for another content type", async (t) => {
  const big = await t.postJson("/api/leads", { ...good, name: "a".repeat(17 * 1024) });
  assert.equal(big.status, 413);
  assert.match(big.headers.get("content-type") ?? "", /application\/json/);
  const form = await t.request("/api/leads", {
    method: "POST",
    body: "name=x",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:8000" },
  });
  assert.equal(form.status, 415);
  assert.equal((await form.json()).error, "unsupported_media_type");
});

appTest("leads: refuses other origins and requests without an origin (no CORS)", async (t) => {
  const res = await t.postJson("/api/leads", good, { origin: "https://evil.example" });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("access-control-allow-origin"), null);
  const none = await t.request("/api/leads", {
    method: "POST",
    body: JSON.stringify(good),
    headers: { "content-type": "application/json" },
  });
  assert.equal(none.status, 403);
  assert.equal((await leads(t)).length, 0);
});

appTest("leads: a filled honeypot is answered 201 like a success and nothing is stored", async (t) => {
  const res = await t.postJson("/api/leads", { ...good, website: "http://spam.example" });
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(typeof (await res.json()).id, "number");
  assert.equal((await leads(t)).length, 0);
});

appTest("leads: bots and headless browsers get 201 but nothing is stored", async (t) => {
  for (const ua of ["Googlebot/2.1 (+http://www.google.com/bot.html)", "Mozilla/5.0 HeadlessChrome/126.0"]) {
    const res = await t.postJson("/api/leads", good, { "user-agent": ua });
    assert.equal(res.status, 201);
  }
  assert.equal((await leads(t)).length, 0);
});

appTest("leads: the 11th lead in 10 minutes from one client is 429 with Retry-After", async (t) => {
  for (let i = 0; i < 10; i++) assert.equal((await t.postJson("/api/leads", good)).status, 201);
  const res = await t.postJson("/api/leads", good);
  assert.equal(res.status, 429);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const retry = Number(res.headers.get("retry-after"));
  assert.ok(retry >= 1 && retry <= 600, `retry-after ${retry}`);
  assert.equal((await leads(t)).length, 10);
}, { now: () => new Date("2026-11-20T15:01:00Z") });

appTest("leads: GET /api/leads is not answered by the public lead endpoint without auth", async (t) => {
  const res = await t.request("/api/leads");
  assert.notEqual(res.status, 200);
  assert.ok(res.status < 500);
});

const NOW = new Date("2026-11-23T12:00:00.000Z");
const DAY = 86_400_000;

appTest(
  "leads: submittedAt keeps the visitor's submission time when plausible, else the server's time",
  async (t) => {
    const cases: [string, number | null, Date][] = [
      [
        "three days ago (re-sent from the outbox)",
        NOW.getTime() - 3 * DAY,
        new Date(NOW.getTime() - 3 * DAY),
      ],
      ["29 days ago", NOW.getTime() - 29 * DAY, new Date(NOW.getTime() - 29 * DAY)],
      ["2 minutes ahead (clock skew): now", NOW.getTime() + 120_000, NOW],
      ["10 minutes ahead: now", NOW.getTime() + 600_000, NOW],
      ["older than the outbox keeps a lead: now", NOW.getTime() - 31 * DAY, NOW],
      ["absent: now", null, NOW],
    ];
    for (const [i, [label, submittedAt, expected]] of cases.entries()) {
      const body = {
        ...good,
        idempotencyKey: `lead_${i}_timecase`,
        sessionId: "1763899200000-abc123",
        submittedAt,
      };
      const res = await t.postJson("/api/leads", body);
      assert.equal(res.status, 201, label);
      const { id } = await res.json();
      const [row] = await t.db.query<{ submitted_at: Date }>("select submitted_at from leads where id = $1", [
        id,
      ]);
      assert.equal(new Date(row.submitted_at).toISOString(), expected.toISOString(), label);
    }
  },
  { now: () => NOW },
);

appTest("leads: a submittedAt or sessionId of the wrong type is a 400 naming the field", async (t) => {
  await expect400(await t.postJson("/api/leads", { ...good, submittedAt: 1.5 }), "submittedAt");
  await expect400(await t.postJson("/api/leads", { ...good, submittedAt: "yesterday" }), "submittedAt");
  await expect400(await t.postJson("/api/leads", { ...good, sessionId: "a b<c" }), "sessionId");
  assert.equal((await leads(t)).length, 0);
});

/** An app whose clock the test moves. */
function clock(start: string) {
  let now = new Date(start);
  return { now: () => now, set: (at: string) => (now = new Date(at)) };
}

const firstClock = clock("2026-11-02T13:00:00Z");
appTest(
  "leads: a lead keeps the visitor's first session in ATTRIBUTION_DAYS as first touch and its own as last",
  async (t) => {
    const session = (n: number) => `1732233600000-sess${n}`;
    const visit = (sessionId: string, extra: Record<string, unknown>) =>
      t.postJson("/api/tracking/visit", { source: "/pt-br", sessionId, entry: true, ...extra });
    // 40 days before the lead (outside the 30-day window): from a newsletter.
    firstClock.set("2026-10-10T13:00:00Z");
    assert.equal((await visit(session(0), { utmSource: "newsletter", utmMedium: "email" })).status, 202);
    // 20 days before: organic search, landing on the Pipefy page; a later page of that session is no entry.
    firstClock.set("2026-10-31T12:00:00Z");
    await visit(session(1), { source: "/pt-br/pipefy-whatsapp-integracao", referrer: "www.google.com.br" });
    await visit(session(1), { source: "/pt-br", entry: false });
    // The converting session: an Instagram bio link with UTM, on the day of the lead.
    firstClock.set("2026-11-20T13:00:00Z");
    await visit(session(2), { source: "/pt-br?utm_source=ig", utmSource: "ig", utmMedium: "social" });
    const res = await t.postJson("/api/leads", {
      ...good,
      utmSource: "ig",
      utmMedium: "social",
      utmCampaign: "bio",
      sessionId: session(2),
      referrer: "l.instagram.com",
      clickIds: { fbclid: true },
      landingPage: "/pt-br?utm_source=ig",
    });
    assert.equal(res.status, 201);
    const rows = await t.db.query(
      `select first_source, first_medium, first_campaign, first_channel, first_landing_page,
              last_source, last_medium, last_campaign, last_channel, last_landing_page, last_referrer
         from leads`,
    );
    assert.deepEqual(rows, [{
      first_source: "google",
      first_medium: "organic",
      first_campaign: null,
      first_channel: "organic_search",
      first_landing_page: "/pt-br/pipefy-whatsapp-integracao",
      last_source: "ig",
      last_medium: "social",
      last_campaign: "bio",
      last_channel: "organic_social",
      last_landing_page: "/pt-br?utm_source=ig",
      last_referrer: "l.instagram.com",
    }]);
  },
  { now: firstClock.now },
);

appTest("leads: without an earlier session, the first touch is the converting one", async (t) => {
  const res = await t.postJson("/api/leads", { ...good, referrer: "chatgpt.com", landingPage: "/en" });
  assert.equal(res.status, 201);
  const rows = await t.db.query(
    "select first_source, first_channel, first_landing_page, last_source, last_medium, last_channel from leads",
  );
  assert.deepEqual(rows, [{
    first_source: "instagram",
    first_channel: "paid_social",
    first_landing_page: "/en",
    last_source: "instagram",
    last_medium: "cpc",
    last_channel: "paid_social",
  }]);
});

appTest("leads: a bad referrer, click-id flag or landing page is a 400 naming the field", async (t) => {
  await expect400(
    await t.postJson("/api/leads", { ...good, referrer: "https://evil.example/x" }),
    "referrer",
  );
  await expect400(await t.postJson("/api/leads", { ...good, clickIds: { gclid: "abc" } }), "clickIds.gclid");
  await expect400(await t.postJson("/api/leads", { ...good, clickIds: { li_fat_id: true } }), "clickIds");
  await expect400(
    await t.postJson("/api/leads", { ...good, landingPage: "https://evil.example/" }),
    "landingPage",
  );
  assert.deepEqual(await leads(t), []);
});
