// The administrator's e-mail when lead deliveries start failing and when they recover, through a local SMTP
// server: one of each per episode, never one per lead.
import assert from "node:assert/strict";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { dbTest } from "../../testing/db.ts";
import { testConfig } from "../../testing/app.ts";
import { fakeSmtp, fakeWebhook } from "../../testing/delivery_fakes.ts";
import { setLogSink } from "../core/log.ts";
import { saveLead } from "./leads.ts";
import { leadDeliveryJob } from "./lead_delivery.ts";
import { systemHealth } from "./system_health.ts";

const SECRET = "whsec_" + btoa("0123456789abcdef0123456789abcdef");
const ADMIN = "dono@zapflow.com.br";
const HOUR = 3_600_000;

let leadNo = 0;
async function newLead(db: Db, config: Config, now: Date): Promise<string> {
  leadNo++;
  await saveLead(db, config, {
    name: `Lead ${leadNo}`,
    email: `lead${leadNo}@empresa.com.br`,
    whatsapp: "(11) 98765-4321",
    plan: "Pro",
    utmSource: null,
    utmCampaign: null,
    utmMedium: null,
    page: "/pt-br/",
    idempotencyKey: null,
    eventId: null,
    sessionId: null,
    submittedAt: null,
  }, { client: { ip: "127.0.0.1", userAgent: "test", cookies: {} }, now });
  return `Lead ${leadNo}`;
}

dbTest(
  "delivery alerts: one e-mail when the webhook starts failing, one when it recovers, none per lead",
  async (db) => {
    const webhook = fakeWebhook(SECRET);
    const smtp = await fakeSmtp();
    const restore = setLogSink(() => {});
    let t = new Date("2026-11-20T15:00:00Z").getTime();
    const now = () => new Date(t);
    const config = testConfig({
      LEAD_WEBHOOK_URL: `${webhook.url}/hooks/leads`,
      LEAD_WEBHOOK_SECRET: SECRET,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
      LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
    });
    await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
    const job = leadDeliveryJob(db, config, { now, random: () => 0.5 })!;
    const run = () => job.run(db, now());
    const alerts = () =>
      smtp.received.filter((m) => m.to.includes(ADMIN)).map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]);
    try {
      // A lead that fails while the next one goes through is that lead's problem: no alert.
      const troublesome = await newLead(db, config, now());
      webhook.chokesOn = (body) => body.includes(`"${troublesome}"`);
      await newLead(db, config, now());
      await run();
      assert.equal(webhook.received.length, 1);
      assert.deepEqual(alerts(), []);

      // The webhook goes down: five leads, runs over three hours; the administrator hears once.
      webhook.chokesOn = undefined;
      webhook.mode = "500";
      for (let i = 0; i < 5; i++) await newLead(db, config, now());
      for (let i = 0; i < 6; i++) {
        await run();
        if (i === 2) await newLead(db, config, now());
        t += 30 * 60_000;
      }
      assert.deepEqual(alerts(), ["Entregas de leads falhando: Webhook"]);
      const failing = smtp.received.find((m) => m.to.includes(ADMIN))!;
      assert.match(failing.raw, /^From: ZapFlow <site@zapflow\.com\.br>$/m);
      assert.match(failing.raw, /HTTP 500/);
      const health = await systemHealth(db, "v-test", now());
      assert.deepEqual(health.failingDestinations.map((d) => d.destination), ["webhook"]);

      // It comes back: the waiting leads go through and the administrator hears once more.
      webhook.mode = "ok";
      t += 2 * HOUR;
      await run();
      await newLead(db, config, now());
      await run();
      assert.equal(webhook.received.length, 9, "every lead reached the webhook");
      assert.deepEqual(alerts(), [
        "Entregas de leads falhando: Webhook",
        "Entregas de leads normalizadas: Webhook",
      ]);
      assert.deepEqual((await systemHealth(db, "v-test", now())).failingDestinations, []);
      // The sales inbox got its lead e-mails, and none of the alerts.
      assert.ok(smtp.received.some((m) => m.to.includes("vendas@zapflow.com.br")));
    } finally {
      job.close?.();
      restore();
      await webhook.down();
      await smtp.down();
    }
  },
);

dbTest("delivery alerts: without SMTP the change is logged and nothing is sent", async (db) => {
  const webhook = fakeWebhook(SECRET);
  webhook.mode = "500";
  const lines: Record<string, unknown>[] = [];
  const restore = setLogSink((_level, line) => lines.push(JSON.parse(line)));
  const config = testConfig({ LEAD_WEBHOOK_URL: `${webhook.url}/hooks/leads`, LEAD_WEBHOOK_SECRET: SECRET });
  const job = leadDeliveryJob(db, config, { random: () => 0.5 })!;
  try {
    await newLead(db, config, new Date());
    await newLead(db, config, new Date());
    await job.run(db, new Date());
    const alert = lines.filter((l) => l.msg === "lead destination failing: administrator alerted");
    assert.equal(alert.length, 1);
    assert.equal(alert[0].destination, "webhook");
  } finally {
    job.close?.();
    restore();
    await webhook.down();
  }
});
