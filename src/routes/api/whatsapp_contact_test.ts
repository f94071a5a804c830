// What the dashboard reads of the WhatsApp speed to lead: the lead list's `whatsappContact` (consent, number,
// message statuses, reply), GET /api/tracking/first-contact, and the LGPD export and erasure of those facts.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { createSenders, deliverDueLeads } from "../../services/lead_delivery.ts";
import { webhookSignature } from "../../services/whatsapp.ts";
import { firstContact, type Lead, leadList } from "../../shared/admin_schemas.ts";

const ENV = {
  WHATSAPP_TOKEN: "EAAtesttoken123456",
  WHATSAPP_PHONE_NUMBER_ID: "1234567890",
  WHATSAPP_TEMPLATE: "lead_boas_vindas",
  WHATSAPP_APP_SECRET: "app-secret-0123456789",
  WHATSAPP_VERIFY_TOKEN: "verify-token-0123456789",
  WHATSAPP_API_URL: "http://graph.test/v23.0",
};

/** A Graph API that accepts every message as `wamid.<n>`. */
const graph: typeof fetch = (() => {
  let n = 0;
  return () => Promise.resolve(Response.json({ messages: [{ id: `wamid.${++n}` }] }));
})();

const lead = (email: string, whatsapp: string, consent: boolean) => ({
  name: "Maria Souza",
  email,
  whatsapp,
  plan: "Plano Pro",
  page: "/pt-br",
  whatsappConsent: consent,
});

async function post(t: TestApp, body: unknown): Promise<number> {
  const res = await t.postJson("/api/leads", body);
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}

async function signedWebhook(t: TestApp, value: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      changes: [{ field: "messages", value: { metadata: { phone_number_id: "1234567890" }, ...value } }],
    }],
  });
  const res = await t.request("/api/whatsapp/webhook", {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-hub-signature-256": await webhookSignature(ENV.WHATSAPP_APP_SECRET, new TextEncoder().encode(body)),
    },
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

async function admin(t: TestApp): Promise<string> {
  await seedAdmin(t.db);
  return await signIn(t);
}

async function leadsOf(t: TestApp, cookie: string): Promise<Lead[]> {
  const res = await getAs(t, cookie, "/api/leads?sort=oldest");
  assert.equal(res.status, 200);
  return leadList.parse(await res.json());
}

appTest(
  "whatsapp contact: the lead list carries consent, number, each status and the reply; other fields as before",
  async (t) => {
    const sent = await post(t, lead("a@example.com", "(11) 98765-4321", true));
    await post(t, lead("b@example.com", "(11) 98765-4322", false));
    await post(t, lead("c@example.com", "(11) 3456-7890", true));
    await deliverDueLeads(t.db, t.deps.config, createSenders(t.deps.config, { fetch: graph }));
    const ts = Math.floor(Date.now() / 1000) + 10;
    const at = (s: number) => new Date((ts + s) * 1000).toISOString();
    const [{ external_ref: wamid }] = await t.db.query<{ external_ref: string }>(
      "select external_ref from lead_deliveries where lead_id = $1 and destination = 'whatsapp'",
      [sent],
    );
    await signedWebhook(t, {
      statuses: [
        { id: wamid, status: "sent", timestamp: String(ts) },
        { id: wamid, status: "delivered", timestamp: String(ts + 2) },
        { id: wamid, status: "read", timestamp: String(ts + 180) },
      ],
    });
    await signedWebhook(t, {
      messages: [{ from: "5511987654321", timestamp: String(ts + 420), type: "text" }],
    });

    const cookie = await admin(t);
    const [a, b, c] = await leadsOf(t, cookie);
    // The contract's fields stay as they were.
    assert.equal(a.whatsapp, "(11) 98765-4321");
    assert.equal(a.name, "Maria Souza");
    assert.equal(a.planLabel, "Plano Pro");
    const w = a.whatsappContact!;
    assert.equal(w.e164, "+5511987654321");
    assert.ok(w.consentAt && !Number.isNaN(Date.parse(w.consentAt)));
    assert.equal(w.consentVersion, "2026-11-v1:pt");
    assert.equal(w.status, "delivered");
    assert.ok(w.acceptedAt);
    assert.equal(w.sentAt, at(0));
    assert.equal(w.deliveredAt, at(2));
    assert.equal(w.readAt, at(180));
    assert.equal(w.repliedAt, at(420));
    assert.equal(w.failedAt, null);
    // No consent: nothing queued, and the card can say so.
    assert.equal(b.whatsappContact!.consentAt, null);
    assert.equal(b.whatsappContact!.status, null);
    assert.equal(b.whatsappContact!.e164, "+5511987654322");
    // A landline: given up with its reason, never sent.
    assert.equal(c.whatsappContact!.status, "failed");
    assert.equal(c.whatsappContact!.error, "número inválido para WhatsApp");
    assert.equal(c.whatsappContact!.e164, null);
  },
  { env: ENV },
);

appTest("whatsapp contact: without WhatsApp configured a lead's contact is null", async (t) => {
  await post(t, lead("a@example.com", "(11) 98765-4321", true));
  const [a] = await leadsOf(t, await admin(t));
  assert.equal(a.whatsappContact, null);
  const stored = await t.db.query(
    "select whatsapp_consent_at from leads where whatsapp_consent_at is not null",
  );
  assert.equal(stored.length, 0, "no consent stored for a box that was never shown");
});

/** Three messaged leads delivered after 10, 20 and 30 s; the first replied after 2 min (paid social). */
async function seedFirstContacts(t: TestApp): Promise<void> {
  for (const [i, phone] of ["(11) 98765-4301", "(11) 98765-4302", "(11) 98765-4303"].entries()) {
    await post(t, lead(`p${i}@example.com`, phone, true));
  }
  await post(t, lead("no@example.com", "(11) 98765-4309", false));
  await deliverDueLeads(t.db, t.deps.config, createSenders(t.deps.config, { fetch: graph }));
  await t.db.query(`update leads set submitted_at = '2026-11-10T15:00:00Z', last_channel = 'organic_search'`);
  await t.db.query(
    `update leads set last_channel = 'paid_social', whatsapp_replied_at = '2026-11-10T15:02:00Z'
                     where whatsapp_e164 = '+5511987654301'`,
  );
  for (const [n, seconds] of [[1, 10], [2, 20], [3, 30]]) {
    await t.db.query(
      `update lead_deliveries set wa_delivered_at = timestamptz '2026-11-10T15:00:00Z' + make_interval(secs => $2)
        where lead_id = (select id from leads where whatsapp_e164 = $1) and destination = 'whatsapp'`,
      [`+551198765430${n}`, seconds],
    );
  }
}

appTest(
  "first contact: median and p90 to delivered and to reply, reply share per channel, only the period's leads",
  async (t) => {
    await seedFirstContacts(t);
    const cookie = await admin(t);
    const res = await getAs(t, cookie, "/api/tracking/first-contact?startDate=2026-11-10&endDate=2026-11-10");
    assert.equal(res.status, 200);
    const body = firstContact.parse(await res.json());
    assert.deepEqual(body, {
      configured: true,
      messaged: 3,
      toDelivered: { count: 3, p50: 20, p90: 28 },
      toReply: { count: 1, p50: 120, p90: 120 },
      channels: [
        { channel: "organic_search", messaged: 2, replied: 0, replyRate: 0 },
        { channel: "paid_social", messaged: 1, replied: 1, replyRate: 100 },
      ],
    });
    const other = await getAs(
      t,
      cookie,
      "/api/tracking/first-contact?startDate=2026-11-11&endDate=2026-11-30",
    );
    assert.deepEqual(firstContact.parse(await other.json()), {
      configured: true,
      messaged: 0,
      toDelivered: { count: 0, p50: null, p90: null },
      toReply: { count: 0, p50: null, p90: null },
      channels: [],
    });
  },
  { env: ENV },
);

appTest("first contact: administrator only; a bad or missing period is 400 with its fields", async (t) => {
  const anonymous = await t.request("/api/tracking/first-contact?startDate=2026-11-01&endDate=2026-11-30");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const cookie = await admin(t);
  const missing = await getAs(t, cookie, "/api/tracking/first-contact");
  assert.equal(missing.status, 400);
  assert.deepEqual(Object.keys((await missing.json()).fields).sort(), ["endDate", "startDate"]);
  const reversed = await getAs(
    t,
    cookie,
    "/api/tracking/first-contact?startDate=2026-11-30&endDate=2026-11-01",
  );
  assert.equal(reversed.status, 400);
  assert.ok((await reversed.json()).fields.endDate);
  const off = await getAs(t, cookie, "/api/tracking/first-contact?startDate=2026-11-01&endDate=2026-11-30");
  assert.equal(firstContact.parse(await off.json()).configured, false);
});

appTest(
  "lgpd: the export carries the WhatsApp consent, number, statuses and reply; erasure takes them all",
  async (t) => {
    const id = await post(t, lead("maria@example.com", "(11) 98765-4321", true));
    await deliverDueLeads(t.db, t.deps.config, createSenders(t.deps.config, { fetch: graph }));
    const ts = Math.floor(Date.now() / 1000) + 10;
    const [{ external_ref: wamid }] = await t.db.query<{ external_ref: string }>(
      "select external_ref from lead_deliveries where lead_id = $1 and destination = 'whatsapp'",
      [id],
    );
    await signedWebhook(t, { statuses: [{ id: wamid, status: "delivered", timestamp: String(ts) }] });
    await signedWebhook(t, { messages: [{ from: "5511987654321", timestamp: String(ts + 60) }] });
    const cookie = await admin(t);
    const res = await getAs(t, cookie, "/api/admin/lgpd/export?email=maria@example.com");
    assert.equal(res.status, 200);
    const [exported] = (await res.json()).leads;
    const w = exported.whatsappContact;
    assert.equal(w.e164, "+5511987654321");
    assert.equal(w.consentVersion, "2026-11-v1:pt");
    assert.ok(w.consentAt);
    assert.equal(w.status, "delivered");
    assert.equal(w.deliveredAt, new Date(ts * 1000).toISOString());
    assert.equal(w.repliedAt, new Date((ts + 60) * 1000).toISOString());

    const erased = await t.request("/api/admin/lgpd/leads", {
      method: "DELETE",
      body: JSON.stringify({ ids: [id] }),
      headers: { "content-type": "application/json", origin: "http://localhost:8000", cookie },
    });
    assert.equal(erased.status, 200);
    await erased.body?.cancel();
    assert.equal((await t.db.query("select 1 from leads where whatsapp_e164 is not null")).length, 0);
    assert.equal(
      (await t.db.query("select 1 from lead_deliveries where external_ref = $1", [wamid])).length,
      0,
    );
    assert.equal((await t.db.query("select 1 from lead_deliveries")).length, 0);
  },
  { env: ENV },
);
