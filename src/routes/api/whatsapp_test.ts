// WhatsApp end to end on one app: a lead who agreed gets the template message through the outbox (a local
// fake of the Graph API), Meta's error codes decide retry or give-up, and the signed webhook records
// sent/delivered/read/replied once (forged, unsigned and replayed bodies change nothing).
import assert from "node:assert/strict";
import { appTest } from "../../../testing/app.ts";
import { createSenders, deliverDueLeads } from "../../services/lead_delivery.ts";
import { webhookSignature } from "../../services/whatsapp.ts";
import { whatsappOfLeads } from "../../db/whatsapp.ts";

const ENV = {
  WHATSAPP_TOKEN: "EAAtesttoken123456",
  WHATSAPP_PHONE_NUMBER_ID: "1234567890",
  WHATSAPP_TEMPLATE: "lead_boas_vindas",
  WHATSAPP_APP_SECRET: "app-secret-0123456789",
  WHATSAPP_VERIFY_TOKEN: "verify-token-0123456789",
  WHATSAPP_API_URL: "http://graph.test/v23.0",
};

function fakeGraph(answers: Array<{ status: number; json: unknown }>) {
  const calls: Array<{ url: string; auth: string | null; body: Record<string, unknown> }> = [];
  const fetchFn: typeof fetch = (input, init) => {
    calls.push({
      url: String(input),
      auth: new Headers(init?.headers).get("authorization"),
      body: JSON.parse(String(init?.body)),
    });
    const a = answers.shift() ?? { status: 200, json: { messages: [{ id: `wamid.${calls.length}` }] } };
    return Promise.resolve(Response.json(a.json, { status: a.status }));
  };
  return { calls, fetchFn };
}

const lead = (whatsapp: string, consent: boolean) => ({
  name: "Maria Souza",
  email: "maria@example.com",
  whatsapp,
  plan: "Plano Pro",
  page: "/pt-br",
  whatsappConsent: consent,
});

appTest(
  "whatsapp: consent + mobile number -> one template message with name and plan; no consent -> none",
  async (t) => {
    const { calls, fetchFn } = fakeGraph([]);
    assert.equal((await t.postJson("/api/leads", lead("(11) 98765-4321", true))).status, 201);
    assert.equal(
      (await t.postJson("/api/leads", { ...lead("(11) 98765-4322", false), email: "b@example.com" })).status,
      201,
    );
    const config = t.deps.config;
    await deliverDueLeads(t.db, config, createSenders(config, { fetch: fetchFn }));
    assert.equal(calls.length, 1);
    assert.equal(calls[0].url, "http://graph.test/v23.0/1234567890/messages");
    assert.equal(calls[0].auth, "Bearer EAAtesttoken123456");
    assert.deepEqual(calls[0].body, {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "+5511987654321",
      type: "template",
      template: {
        name: "lead_boas_vindas",
        language: { code: "pt_BR" },
        components: [{
          type: "body",
          parameters: [{ type: "text", text: "Maria Souza" }, { type: "text", text: "Plano Pro" }],
        }],
      },
    });
    const [first, second] = await whatsappOfLeads(t.db, [1, 2]);
    assert.equal(first.status, "delivered");
    assert.ok(first.consentAt && first.consentVersion?.startsWith("2026-11-v1"));
    assert.equal(second.status, null);
    assert.equal(second.consentAt, null);
  },
  { env: ENV },
);

appTest("whatsapp: an invalid number is recorded failed with its reason, never sent", async (t) => {
  const { calls, fetchFn } = fakeGraph([]);
  await t.postJson("/api/leads", lead("(11) 3456-7890", true));
  await deliverDueLeads(t.db, t.deps.config, createSenders(t.deps.config, { fetch: fetchFn }));
  assert.equal(calls.length, 0);
  const [w] = await whatsappOfLeads(t.db, [1]);
  assert.equal(w.status, "failed");
  assert.equal(w.error, "número inválido para WhatsApp");
}, { env: ENV });

appTest(
  "whatsapp: rate limit 130429 retries; 131026 (not on WhatsApp) gives up with its reason",
  async (t) => {
    const { calls, fetchFn } = fakeGraph([
      { status: 400, json: { error: { code: 130429, message: "Rate limit hit" } } },
      { status: 400, json: { error: { code: 131026, message: "Message undeliverable" } } },
    ]);
    await t.postJson("/api/leads", lead("(11) 98765-4321", true));
    const config = t.deps.config;
    const senders = createSenders(config, { fetch: fetchFn });
    const r1 = await deliverDueLeads(t.db, config, senders);
    assert.equal(r1.retrying, 1);
    await t.db.query("update lead_deliveries set next_attempt_at = now() - interval '1 second'");
    const r2 = await deliverDueLeads(t.db, config, senders);
    assert.equal(r2.failed, 1);
    assert.equal(calls.length, 2);
    const [w] = await whatsappOfLeads(t.db, [1]);
    assert.match(w.error ?? "", /131026: o número não está no WhatsApp/);
  },
  { env: ENV },
);

appTest(
  "whatsapp webhook: handshake with the right token echoes the challenge; a wrong one is 403",
  async (t) => {
    const ok = await t.request(
      "/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=verify-token-0123456789&hub.challenge=1158201444",
    );
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "1158201444");
    const bad = await t.request(
      "/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1",
    );
    assert.equal(bad.status, 403);
    await bad.body?.cancel();
  },
  { env: ENV },
);

appTest(
  "whatsapp webhook: signed statuses and a reply are recorded once; bad, missing or replayed change nothing",
  async (t) => {
    const { fetchFn } = fakeGraph([]);
    await t.postJson("/api/leads", lead("(11) 98765-4321", true));
    await deliverDueLeads(t.db, t.deps.config, createSenders(t.deps.config, { fetch: fetchFn }));
    const ts = Math.floor(Date.now() / 1000);
    const value = (v: Record<string, unknown>) =>
      JSON.stringify({
        object: "whatsapp_business_account",
        entry: [{
          changes: [{ field: "messages", value: { metadata: { phone_number_id: "1234567890" }, ...v } }],
        }],
      });
    const post = async (body: string, signature?: string) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (signature !== undefined) headers["x-hub-signature-256"] = signature;
      const res = await t.request("/api/whatsapp/webhook", { method: "POST", body, headers });
      await res.body?.cancel();
      return res.status;
    };
    const sign = (body: string) => webhookSignature("app-secret-0123456789", new TextEncoder().encode(body));
    // Out of order: read arrives before delivered.
    const read = value({ statuses: [{ id: "wamid.1", status: "read", timestamp: String(ts + 60) }] });
    const delivered = value({
      statuses: [{ id: "wamid.1", status: "delivered", timestamp: String(ts + 5) }],
    });
    const reply = value({
      messages: [{
        from: "5511987654321",
        id: "wamid.in",
        timestamp: String(ts + 120),
        type: "text",
        text: { body: "Olá!" },
      }],
    });
    assert.equal(await post(read), 401); // unsigned
    assert.equal(await post(read, "sha256=" + "0".repeat(64)), 401); // forged
    assert.equal(await post(read, await sign(read + " ")), 401); // signature of another body
    let [w] = await whatsappOfLeads(t.db, [1]);
    assert.equal(w.readAt, null);
    assert.equal(await post(read, await sign(read)), 200);
    assert.equal(await post(delivered, await sign(delivered)), 200);
    assert.equal(await post(reply, await sign(reply)), 200);
    [w] = await whatsappOfLeads(t.db, [1]);
    assert.equal(w.deliveredAt, new Date((ts + 5) * 1000).toISOString());
    assert.equal(w.readAt, new Date((ts + 60) * 1000).toISOString());
    assert.equal(w.repliedAt, new Date((ts + 120) * 1000).toISOString());
    // Replayed, and a later "delivered" for the same message: the first times stay.
    const later = value({ statuses: [{ id: "wamid.1", status: "delivered", timestamp: String(ts + 999) }] });
    assert.equal(await post(delivered, await sign(delivered)), 200);
    assert.equal(await post(later, await sign(later)), 200);
    const [again] = await whatsappOfLeads(t.db, [1]);
    assert.deepEqual(again, w);
    const text = JSON.stringify(await t.db.query("select * from leads"));
    assert.ok(!text.includes("Olá"), "never the text of a message");
  },
  { env: ENV },
);
