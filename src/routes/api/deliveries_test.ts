import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { createSenders, deliverDueLeads } from "../../services/lead_delivery.ts";
import { claimDueDeliveries } from "../../db/lead_deliveries.ts";

// Destinations that are configured but never reached in these tests (nothing listens on port 9).
const ENV = {
  LEAD_WEBHOOK_URL: "http://127.0.0.1:9/hooks/leads?token=url-secret-777",
  LEAD_WEBHOOK_SECRET: "whsec_" + btoa("0123456789abcdef0123456789abcdef"),
  TRELLO_KEY: "trello-key-0123",
  TRELLO_TOKEN: "trello-token-4567",
  TRELLO_LIST_ID: "5f1e0c0ffee0c0ffee0c0ffe",
  TRELLO_API_URL: "http://127.0.0.1:9",
};
const SECRETS = ["url-secret-777", "0123456789abcdef", "trello-key-0123", "trello-token-4567", "127.0.0.1:9"];

async function lead(t: TestApp, n: number): Promise<number> {
  const res = await t.postJson("/api/leads", {
    name: `Maria ${n}`,
    email: `maria${n}@example.com`,
    whatsapp: "(11) 98765-4321",
    plan: "Pro",
  });
  assert.equal(res.status, 201);
  return (await res.json()).id;
}

function resend(t: TestApp, cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return t.request("/api/admin/deliveries/resend", {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", origin: TEST_ORIGIN, cookie, ...headers },
  });
}

appTest("deliveries: a new lead shows one pending delivery per configured destination", async (t) => {
  const id = await lead(t, 1);
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const res = await getAs(t, cookie, `/api/admin/deliveries?leads=${id},999`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const { deliveries } = await res.json();
  assert.deepEqual(
    deliveries.map((d: { destination: string; status: string }) => [d.destination, d.status]),
    [
      ["trello", "pending"],
      ["webhook", "pending"],
    ],
  );
  const panel = await getAs(t, cookie, "/api/admin/destinations");
  const text = await panel.text();
  assert.deepEqual(JSON.parse(text).destinations.map((d: { destination: string }) => d.destination), [
    "webhook",
    "trello",
  ]);
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in the panel's answer`);
}, { env: ENV });

appTest("deliveries: admin only, ids checked, and Reenviar needs same-origin JSON", async (t) => {
  const id = await lead(t, 2);
  assert.equal((await t.request(`/api/admin/deliveries?leads=${id}`)).status, 401);
  assert.equal((await t.request("/api/admin/destinations")).status, 401);
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const bad = await getAs(t, cookie, "/api/admin/deliveries?leads=1,abc");
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).fields.leads, /lead ids separated by commas/);
  const wrong = await resend(t, cookie, { leadId: id, destination: "fax" });
  assert.equal(wrong.status, 400);
  assert.ok((await wrong.json()).fields.destination);
  assert.equal(
    (await resend(t, cookie, { leadId: id, destination: "trello" }, { origin: "https://evil.example" }))
      .status,
    403,
  );
  const ok = await resend(t, cookie, { leadId: id, destination: "trello" });
  assert.equal(ok.status, 202);
  await t.db.query("update lead_deliveries set status = 'delivered' where lead_id = $1", [id]);
  const again = await resend(t, cookie, { leadId: id, destination: "trello" });
  assert.equal(again.status, 409);
  assert.deepEqual(await again.json(), { error: "nothing_to_resend" });
  assert.equal((await resend(t, cookie, { leadId: id, destination: "email" })).status, 409, "not configured");
}, { env: ENV });

appTest("deliveries: the LGPD erase takes the person's deliveries with the lead", async (t) => {
  const id = await lead(t, 3);
  await lead(t, 4);
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const res = await t.request("/api/admin/lgpd/leads", {
    method: "DELETE",
    body: JSON.stringify({ ids: [id] }),
    headers: { "content-type": "application/json", origin: TEST_ORIGIN, cookie },
  });
  assert.equal(res.status, 200);
  const left = await t.db.query<{ lead_id: number }>("select lead_id from lead_deliveries");
  assert.equal(left.length, 2);
  assert.ok(left.every((r) => Number(r.lead_id) !== id));
}, { env: ENV });

interface DeliveryAnswer {
  leadId: number;
  destination: string;
  status: string;
  state: string;
  attempts: number;
  nextAttempt: number | null;
  nextAttemptAt: string | null;
  lastError: string | null;
}

let clock = new Date("2026-11-20T17:00:00Z");

appTest(
  "deliveries: a delivery being retried is pending with its next attempt, failed only once given up; the card's states add up to the panel's counts",
  async (t) => {
    clock = new Date("2026-11-20T17:00:00Z");
    const first = await lead(t, 5);
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    const config = t.deps.config;
    const run = () =>
      deliverDueLeads(t.db, config, createSenders(config), { now: () => clock, random: () => 0 });
    const deliveriesOf = async (ids: number[]) => {
      const res = await getAs(t, cookie, `/api/admin/deliveries?leads=${ids.join(",")}`);
      assert.equal(res.status, 200);
      return (await res.json()).deliveries as DeliveryAnswer[];
    };

    // Not tried yet: queued.
    assert.deepEqual((await deliveriesOf([first])).map((d) => [d.destination, d.state, d.nextAttempt]), [
      ["trello", "queued", 1],
      ["webhook", "queued", 1],
    ]);
    // Both destinations refuse the connection, twice: pending, the third attempt scheduled, not failed.
    for (let i = 0; i < 2; i++) {
      await run();
      const due = Math.max(...(await deliveriesOf([first])).map((d) => Date.parse(d.nextAttemptAt!)));
      assert.ok(due > clock.getTime(), "the next attempt is in the future");
      clock = new Date(due + 1000);
    }
    clock = new Date(clock.getTime() - 2000); // just before the third attempt is due
    for (const d of await deliveriesOf([first])) {
      assert.equal(d.status, "pending", d.destination);
      assert.equal(d.state, "retrying", d.destination);
      assert.equal(d.attempts, 2, d.destination);
      assert.equal(d.nextAttempt, 3, d.destination);
      assert.ok(Date.parse(d.nextAttemptAt!) > clock.getTime(), d.destination);
      assert.ok(d.lastError, `${d.destination}: the reason of the last failure`);
    }

    // Trello's retry window ran out: the next failure gives up for good. The webhook is still retried.
    await t.db.query(
      "update lead_deliveries set retry_since = retry_since - interval '4 days' where destination = 'trello'",
    );
    clock = new Date(clock.getTime() + 2000);
    await run();
    const settled = await deliveriesOf([first]);
    assert.deepEqual(settled.map((d) => [d.destination, d.status, d.state, d.nextAttempt]), [
      ["trello", "failed", "failed", null],
      ["webhook", "pending", "retrying", 4],
    ]);
    assert.match(settled[0].lastError ?? "", /^desistiu após 3 dias de tentativas/);
    assert.equal(settled[0].nextAttemptAt, null);

    // A second lead whose webhook delivery a worker holds right now: sending, not failed.
    const second = await lead(t, 6);
    const claimed = await claimDueDeliveries(
      t.db,
      "webhook",
      clock,
      new Date(clock.getTime() + 15 * 60_000),
      "test-lease",
      10,
    );
    assert.deepEqual(claimed.map((c) => c.lead.id), [second]);
    const both = await deliveriesOf([first, second]);
    assert.deepEqual(
      both.filter((d) => d.leadId === second).map((d) => [d.destination, d.state, d.nextAttempt]),
      [["trello", "queued", 1], ["webhook", "sending", 1]],
    );

    // The destinations panel counts what the cards show: pending = queued + sending + retrying.
    const panel = await (await getAs(t, cookie, "/api/admin/destinations")).json();
    for (const h of panel.destinations as { destination: string; pending: number; failed: number }[]) {
      const mine = both.filter((d) => d.destination === h.destination);
      const pending = mine.filter((d) => ["queued", "sending", "retrying"].includes(d.state)).length;
      const failed = mine.filter((d) => d.state === "failed").length;
      assert.deepEqual([h.pending, h.failed], [pending, failed], h.destination);
    }
    assert.deepEqual(
      panel.destinations.map((h: { destination: string; pending: number; failed: number }) => [
        h.destination,
        h.pending,
        h.failed,
      ]),
      [["webhook", 2, 0], ["trello", 1, 1]],
    );
  },
  { env: ENV, now: () => clock },
);
