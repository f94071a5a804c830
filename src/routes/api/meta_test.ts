import assert from "node:assert/strict";
import { appTest } from "../../../testing/app.ts";
import { listMetaEvents } from "../../../testing/meta_outbox.ts";
import { insertLead } from "../../db/leads.ts";
import { leadCustomData, planValue } from "../../services/leads.ts";
import { SITE } from "../../site.ts";

const META_ENV = {
  META_PIXEL_ID: "123456789012345",
  META_ACCESS_TOKEN: "secret-token",
  GTM_ID: "GTM-AB12CD",
};
const event = {
  eventName: "Lead",
  eventSourceUrl: "http://localhost:8000/pt-br/?fbclid=IwAR123abc",
  customData: { content_name: "Pro", value: 0, currency: "BRL" },
  eventId: "lead_1732233600000_x7k2p9",
};

appTest("config: ids are null when unset", async (t) => {
  const res = await t.request("/api/config");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.deepEqual(await res.json(), { metaPixelId: null, gtmId: null });
});

appTest("config: gives the pixel and tag manager ids, never the token", async (t) => {
  const res = await t.request("/api/config");
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.deepEqual(JSON.parse(text), { metaPixelId: META_ENV.META_PIXEL_ID, gtmId: META_ENV.GTM_ID });
  assert.ok(!text.includes("secret-token"));
}, { env: META_ENV });

/** A lead stored with the event's id (straight into the database, so its own Lead event is not queued). */
async function storeLead(t: { db: Parameters<typeof insertLead>[0] }, eventId = event.eventId, plan = "Pro") {
  await insertLead(t.db, {
    idempotencyKey: null,
    name: "Maria",
    email: "maria@example.com",
    whatsapp: "(11) 98765-4321",
    plan: planValue(plan),
    planLabel: plan,
    utmSource: null,
    utmCampaign: null,
    utmMedium: null,
    page: null,
    submittedAt: new Date(),
    sessionId: null,
    eventId,
  });
}

appTest(
  "meta event: a stored lead's Lead is queued with the plan's price, IP, user agent, fbp and fbc",
  async (t) => {
    await storeLead(t);
    const res = await t.postJson("/api/meta/event", event, { cookie: "_fbp=fb.1.1596403881668.1116446470" });
    assert.equal(res.status, 202);
    const [row] = await listMetaEvents(t.db);
    assert.equal(row.eventId, event.eventId);
    assert.equal(row.status, "pending");
    const payload = row.payload as { user_data: Record<string, string>; [k: string]: unknown };
    assert.equal(payload.event_name, "Lead");
    assert.equal(payload.event_id, event.eventId);
    assert.equal(payload.action_source, "website");
    assert.equal(payload.event_source_url, event.eventSourceUrl);
    // Decided by the server from the stored lead and src/site.ts, whatever the browser sent.
    assert.deepEqual(payload.custom_data, {
      content_name: "Pro",
      content_category: "pricing",
      currency: "BRL",
      value: 297,
    });
    assert.equal(payload.user_data.fbp, "fb.1.1596403881668.1116446470");
    assert.match(payload.user_data.fbc, /^fb\.1\.\d{13}\.IwAR123abc$/);
    assert.equal(payload.user_data.client_ip_address, "0.0.0.0");
    assert.match(payload.user_data.client_user_agent, /Chrome/);
  },
  { env: META_ENV },
);

appTest("meta event: the same event id is queued once", async (t) => {
  await storeLead(t);
  assert.equal((await t.postJson("/api/meta/event", event)).status, 202);
  assert.equal((await t.postJson("/api/meta/event", event)).status, 202);
  assert.equal((await listMetaEvents(t.db)).length, 1);
}, { env: META_ENV });

appTest("meta event: nothing is queued when the pixel id or token is missing", async (t) => {
  await storeLead(t);
  assert.equal((await t.postJson("/api/meta/event", event)).status, 202);
  assert.equal((await listMetaEvents(t.db)).length, 0);
}, { env: { META_PIXEL_ID: "123456789012345" } });

appTest("meta event: forged events are refused or reduced to what the site itself would send", async (t) => {
  await storeLead(t);
  const now = Date.now();
  const refused: [string, unknown, string][] = [
    ["a Purchase", { ...event, eventName: "Purchase" }, "eventName"],
    ["a PageView", { ...event, eventName: "PageView" }, "eventName"],
    ["markup as a name", { ...event, eventName: "Lead<script>" }, "eventName"],
    [
      "cloud metadata URL",
      { ...event, eventSourceUrl: "http://169.254.169.254/latest/meta-data/" },
      "eventSourceUrl",
    ],
    ["another site's URL", { ...event, eventSourceUrl: "https://evil.example/pt-br" }, "eventSourceUrl"],
    [
      "look-alike host",
      { ...event, eventSourceUrl: "http://localhost:8000.evil.example/" },
      "eventSourceUrl",
    ],
    ["javascript: URL", { ...event, eventSourceUrl: "javascript:alert(1)" }, "eventSourceUrl"],
    ["no stored lead", { ...event, eventId: "lead_1_nolead" }, "eventId"],
    ["empty event id", { ...event, eventId: "" }, "eventId"],
    ["numeric event id", { ...event, eventId: 5 }, "eventId"],
    ["nested custom data", { ...event, customData: { nested: { a: 1 } } }, "customData.nested"],
    ["NUL in custom data", { ...event, customData: { name: "a\u0000" } }, "customData.name"],
    ["unknown field", { ...event, extra: true }, "body"],
  ];
  const table = ["case | answer | field"];
  for (const [name, body, field] of refused) {
    const res = await t.postJson("/api/meta/event", body);
    const json = await res.json();
    table.push(`${name} | ${res.status} | ${Object.keys(json.fields ?? {}).join(",")}`);
    assert.equal(res.status, 400, name);
    assert.ok(field in json.fields, `${name}: ${field} in ${JSON.stringify(json.fields)}`);
  }
  assert.equal((await listMetaEvents(t.db)).length, 0);
  // Accepted, but what reaches Meta is the site's own: a 999,999,999 USD value, a third party's unhashed
  // e-mail and phone, a click id older than 90 days and a browser id from the future are not passed on.
  const forged = await t.postJson(
    "/api/meta/event",
    {
      ...event,
      eventSourceUrl: "http://localhost:8000/pt-br",
      customData: { value: 999_999_999, currency: "USD", em: "victim@example.com", ph: "5511999999999" },
    },
    { cookie: `_fbc=fb.1.${now - 400 * 86_400_000}.forged; _fbp=fb.1.${now + 10 * 86_400_000}.123` },
  );
  table.push(`Purchase-sized value, third-party em/ph, forged _fbc/_fbp | ${forged.status} | (reduced)`);
  assert.equal(forged.status, 202);
  const [row] = await listMetaEvents(t.db);
  const payload = row.payload as { custom_data: unknown; user_data: Record<string, unknown> };
  assert.deepEqual(payload.custom_data, {
    content_name: "Pro",
    content_category: "pricing",
    currency: "BRL",
    value: 297,
  });
  assert.equal(payload.user_data.fbc, undefined);
  assert.equal(payload.user_data.fbp, undefined);
  assert.ok(!JSON.stringify(payload).includes("victim"));
  console.log(table.join("\n"));
  const big = await t.postJson("/api/meta/event", { ...event, customData: { a: "x".repeat(9000) } });
  assert.equal(big.status, 413);
  const cross = await t.postJson("/api/meta/event", event, { origin: "https://evil.example" });
  assert.equal(cross.status, 403);
}, { env: META_ENV });

appTest("meta event: bots are answered but nothing is queued", async (t) => {
  await storeLead(t);
  const bot = await t.postJson("/api/meta/event", event, { "user-agent": "facebookexternalhit/1.1" });
  assert.equal(bot.status, 202);
  assert.equal((await listMetaEvents(t.db)).length, 0);
}, { env: META_ENV });

appTest(
  "leads: with an event id and Meta configured, the Lead event is queued with hashed e-mail and phone",
  async (t) => {
    const res = await t.postJson("/api/leads", {
      name: "Maria",
      email: " Maria@Example.com ",
      whatsapp: "(11) 98765-4321",
      plan: "Pro",
      eventId: "lead_1732233600000_ab12cd",
      page: "http://localhost:8000/pt-br/#precos",
    });
    assert.equal(res.status, 201);
    const [row] = await listMetaEvents(t.db);
    const user = (row.payload as { user_data: Record<string, string[]> }).user_data;
    assert.equal(row.eventId, "lead_1732233600000_ab12cd");
    // sha256("maria@example.com") and sha256("5511987654321")
    assert.deepEqual(user.em, ["10ef04a5a1acd81d18a0c61fdd354a063da07223720a1d8760aa5c2afa5e8ee0"]);
    assert.deepEqual(user.ph, ["029c7290f14c4516673508635f0519db95f7daf42057fd0e4ad1de84c5408a66"]);
    assert.ok(!JSON.stringify(row.payload).includes("aria@"));
    // The plan's price from src/site.ts, in BRL.
    assert.deepEqual((row.payload as { custom_data: unknown }).custom_data, {
      content_name: "Pro",
      content_category: "pricing",
      currency: "BRL",
      value: 297,
    });
  },
  { env: META_ENV },
);

appTest("config: the CSP allows the pixel and tag manager hosts only when they are configured", async (t) => {
  const csp = (await t.request("/api/config")).headers.get("content-security-policy") ?? "";
  assert.match(csp, /connect-src 'self' https:\/\/connect\.facebook\.net https:\/\/www\.facebook\.com/);
  assert.match(csp, /https:\/\/\*\.google-analytics\.com/);
}, { env: META_ENV });

appTest("config: without pixel and tag manager the CSP connects to the site only", async (t) => {
  const csp = (await t.request("/api/config")).headers.get("content-security-policy") ?? "";
  assert.match(csp, /connect-src 'self';/);
});

Deno.test("meta: a lead's custom data carries its plan's price in BRL, and no value for the specialist", () => {
  assert.deepEqual(leadCustomData("Micro"), {
    content_name: "Micro",
    content_category: "pricing",
    currency: "BRL",
    value: 147,
  });
  assert.equal(leadCustomData("Premium").value, 497);
  assert.deepEqual(leadCustomData("Especialista"), {
    content_name: "Especialista",
    content_category: "pricing",
  });
});

Deno.test("meta: the prices reported to Meta are the prices the pricing section shows, in every language", async () => {
  for (const lang of ["pt", "en", "es"]) {
    const home = JSON.parse(
      await Deno.readTextFile(new URL(`../../../locales/${lang}/home.json`, import.meta.url)),
    );
    for (const plan of SITE.plans) {
      assert.equal(home.pricing.plans[plan.key].price, `R$ ${plan.price}`, `${lang} ${plan.key}`);
    }
  }
});
