// Lead delivery with the whole program: two real server processes on one PostgreSQL, every destination
// pointed at a local fake (WhatsApp's Cloud API too), leads posted to both. Each lead must reach each
// destination exactly once (a WhatsApp template message for each lead who ticked the box), and
// both processes must stop cleanly (their workers finish and close the SMTP transport).
import assert from "node:assert/strict";
import { withProcessSchema } from "../testing/db.ts";
import { startServer } from "../testing/server.ts";
import { fakePipefy, fakeSmtp, fakeTrello, fakeWebhook, fakeWhatsapp } from "../testing/delivery_fakes.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;
const ORIGIN = "http://localhost:8000";
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
const SECRET = "whsec_" + btoa("0123456789abcdef0123456789abcdef");
const LEADS = 30;

Deno.test({
  name: "instances: two processes on one PostgreSQL deliver each lead once to each destination",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const fakes = {
      webhook: fakeWebhook(SECRET),
      pipefy: fakePipefy("pipefy-token-abc123"),
      trello: fakeTrello("trello-key-0123", "trello-token-4567"),
      email: await fakeSmtp(),
      whatsapp: fakeWhatsapp("EAAtesttoken123456", "1234567890"),
    };
    await withProcessSchema("deliver", async ({ schema, url, admin }) => {
      const env = {
        DATABASE_URL: url,
        PUBLIC_ORIGIN: ORIGIN,
        TRUST_PROXY: "1", // each lead from its own address, so the per-visitor lead limit stays out of the way
        LEAD_WEBHOOK_URL: `${fakes.webhook.url}/hooks/leads`,
        LEAD_WEBHOOK_SECRET: SECRET,
        PIPEFY_TOKEN: "pipefy-token-abc123",
        PIPEFY_PIPE_ID: "301234567",
        PIPEFY_FIELDS: "name:nome,email:e_mail",
        PIPEFY_API_URL: `${fakes.pipefy.url}/graphql`,
        TRELLO_KEY: "trello-key-0123",
        TRELLO_TOKEN: "trello-token-4567",
        TRELLO_LIST_ID: "5f1e0c0ffee0c0ffee0c0ffe",
        TRELLO_API_URL: fakes.trello.url,
        SMTP_URL: `smtp://127.0.0.1:${fakes.email.port}`,
        LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
        LEAD_NOTIFY_FROM: "site@zapflow.com.br",
        WHATSAPP_TOKEN: "EAAtesttoken123456",
        WHATSAPP_PHONE_NUMBER_ID: "1234567890",
        WHATSAPP_TEMPLATE: "lead_boas_vindas",
        WHATSAPP_APP_SECRET: "app-secret-0123456789",
        WHATSAPP_VERIFY_TOKEN: "verify-token-0123456789",
        WHATSAPP_API_URL: `${fakes.whatsapp.url}/v23.0`,
      };
      const servers = await Promise.allSettled([startServer({ env }), startServer({ env })]);
      try {
        const [a, b] = servers.map((s) => {
          if (s.status === "rejected") throw s.reason;
          return s.value;
        });
        for (let i = 0; i < LEADS; i++) {
          const res = await fetch(`${(i % 2 ? b : a).url}/api/leads`, {
            method: "POST",
            body: JSON.stringify({
              name: `Lead ${i}`,
              email: `lead${i}@example.com`,
              // Each lead its own mobile number, so the messages can be told apart.
              whatsapp: `119876${String(54000 + i)}`,
              plan: "Pro",
              whatsappConsent: true,
            }),
            headers: {
              "content-type": "application/json",
              origin: ORIGIN,
              "user-agent": BROWSER_UA,
              "x-forwarded-for": `10.0.${i}.1`,
            },
          });
          assert.equal(res.status, 201, await res.text());
        }
        const all = Object.values(fakes);
        const deadline = Date.now() + 60_000;
        while (all.some((f) => f.received.length < LEADS) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        await new Promise((resolve) => setTimeout(resolve, 5_000)); // two more polls of each worker
        for (const [name, fake] of Object.entries(fakes)) assert.equal(fake.received.length, LEADS, name);
        assert.equal(new Set(fakes.webhook.received.map((h) => h.id)).size, LEADS);
        assert.equal(new Set(fakes.trello.received.map((h) => h.card.name)).size, LEADS);
        assert.equal(new Set(fakes.whatsapp.received.map((h) => h.message.to)).size, LEADS);
        assert.ok(fakes.whatsapp.received.every((h) => h.message.template.name === "lead_boas_vindas"));
        const rows = await admin.query<{ status: string; n: number }>(
          `select status, count(*)::int as n from ${schema}.lead_deliveries group by status`,
        );
        assert.deepEqual(rows, [{ status: "delivered", n: 5 * LEADS }]);
      } finally {
        for (const s of servers) if (s.status === "fulfilled") assert.equal(await s.value.stop(), 0);
        for (const fake of Object.values(fakes)) await fake.down();
      }
    });
  },
});
