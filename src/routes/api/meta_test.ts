import assert from "node:assert/strict";
import { appTest } from "../../testing/app.ts";
import { listMetaEvents } from "../../db/meta_outbox.ts";

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

appTest("meta event: queued in the outbox with IP, user agent, fbp and fbc from fbclid", async (t) => {
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
  assert.deepEqual(payload.custom_data, event.customData);
  assert.equal(payload.user_data.fbp, "fb.1.1596403881668.1116446470");
  assert.match(payload.user_data.fbc, /^fb\.1\.\d{13}\.IwAR123abc$/);
  assert.equal(payload.user_data.client_ip_address, "0.0.0.0");
  assert.match(payload.user_data.client_user_agent, /Chrome/);
}, { env: META_ENV });

appTest("meta event: the same event id is queued once", async (t) => {
  assert.equal((await t.postJson("/api/meta/event", event)).status, 202);
  assert.equal((await t.postJson("/api/meta/event", event)).status, 202);
  assert.equal((await listMetaEvents(t.db)).length, 1);
}, { env: META_ENV });

appTest("meta event: nothing is queued when the pixel id or token is missing", async (t) => {
  assert.equal((await t.postJson("/api/meta/event", event)).status, 202);
  assert.equal((await listMetaEvents(t.db)).length, 0);
}, { env: { META_PIXEL_ID: "123456789012345" } });

appTest("meta event: bad input is a 400 naming the field; bots are answered but not queued", async (t) => {
  const cases: [unknown, string][] = [
    [{ ...event, eventName: "Lead<script>" }, "eventName"],
    [{ ...event, eventSourceUrl: "javascript:alert(1)" }, "eventSourceUrl"],
    [{ ...event, eventId: "" }, "eventId"],
    [{ ...event, eventId: 5 }, "eventId"],
    [{ ...event, customData: { nested: { a: 1 } } }, "customData.nested"],
    [{ ...event, customData: { name: "a\u0000" } }, "customData.name"],
    [{ ...event, extra: true }, "body"],
  ];
  for (const [body, field] of cases) {
    const res = await t.postJson("/api/meta/event", body);
    assert.equal(res.status, 400);
    const json = await res.json();
    assert.ok(field in json.fields, `${field} in ${JSON.stringify(json.fields)}`);
  }
  const big = await t.postJson("/api/meta/event", { ...event, customData: { a: "x".repeat(9000) } });
  assert.equal(big.status, 413);
  const bot = await t.postJson("/api/meta/event", event, { "user-agent": "facebookexternalhit/1.1" });
  assert.equal(bot.status, 202);
  const cross = await t.postJson("/api/meta/event", event, { origin: "https://evil.example" });
  assert.equal(cross.status, 403);
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
