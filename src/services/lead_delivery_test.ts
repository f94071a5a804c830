// The lead delivery outbox against local fakes of the four destinations, with a clock the test moves by hand.
import assert from "node:assert/strict";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { openDb } from "../db/client.ts";
import { dbKinds, dbTest, withOwnSchema } from "../../testing/db.ts";
import { testConfig } from "../../testing/app.ts";
import {
  type FakeDestination,
  fakePipefy,
  fakeSmtp,
  fakeTrello,
  fakeWebhook,
  type PipefyHit,
  type SmtpHit,
  type TrelloHit,
  type WebhookHit,
} from "../../testing/delivery_fakes.ts";
import { setLogLevel, setLogSink } from "../core/log.ts";
import { saveLead } from "./leads.ts";
import {
  createSenders,
  deliverDueLeads,
  DELIVERY_RETRY_WINDOW_MS,
  destinationsPanel,
  leadDeliveries,
  resendDelivery,
} from "./lead_delivery.ts";
import { eraseLeads } from "./lgpd.ts";

const SECRET = "whsec_" + btoa("0123456789abcdef0123456789abcdef");
const PIPEFY_TOKEN = "pipefy-token-abc123";
const TRELLO_KEY = "trello-key-0123";
const TRELLO_TOKEN = "trello-token-4567";
const LIST_ID = "5f1e0c0ffee0c0ffee0c0ffe";
const client = { ip: "127.0.0.1", userAgent: "test", cookies: {} };

interface Fakes {
  webhook: FakeDestination<WebhookHit>;
  pipefy: FakeDestination<PipefyHit>;
  trello: FakeDestination<TrelloHit>;
  email: FakeDestination<SmtpHit>;
  all: FakeDestination<unknown>[];
  close(): Promise<void>;
}

async function startFakes(): Promise<Fakes> {
  const webhook = fakeWebhook(SECRET);
  const pipefy = fakePipefy(PIPEFY_TOKEN);
  const trello = fakeTrello(TRELLO_KEY, TRELLO_TOKEN);
  const email = await fakeSmtp();
  const all = [webhook, pipefy, trello, email] as FakeDestination<unknown>[];
  return {
    webhook,
    pipefy,
    trello,
    email,
    all,
    close: async () => void await Promise.all(all.map((f) => f.down())),
  };
}

function configFor(f: Fakes, only?: string[], extra: Record<string, string> = {}): Config {
  const env: Record<string, Record<string, string>> = {
    webhook: { LEAD_WEBHOOK_URL: `${f.webhook.url}/hooks/leads`, LEAD_WEBHOOK_SECRET: SECRET },
    pipefy: {
      PIPEFY_TOKEN,
      PIPEFY_PIPE_ID: "301234567",
      PIPEFY_FIELDS: "name:nome, email:e_mail, whatsapp:whatsapp, plan:plano, origin:origem",
      PIPEFY_API_URL: `${f.pipefy.url}/graphql`,
    },
    trello: { TRELLO_KEY, TRELLO_TOKEN, TRELLO_LIST_ID: LIST_ID, TRELLO_API_URL: f.trello.url },
    email: {
      SMTP_URL: `smtp://vendas:smtp-pass-999@127.0.0.1:${f.email.port}`,
      LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
      LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
    },
  };
  const chosen = only ?? Object.keys(env);
  return testConfig(Object.assign({}, ...chosen.map((k) => env[k]), extra));
}

function clock(start: string) {
  let t = new Date(start).getTime();
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

let leadNo = 0;
async function newLead(db: Db, config: Config, now: Date, extra: Record<string, string | null> = {}) {
  leadNo++;
  const { id } = await saveLead(db, config, {
    name: `Maria ${leadNo}`,
    email: `maria${leadNo}@empresa.com.br`,
    whatsapp: "(11) 98765-4321",
    plan: "Pro",
    utmSource: "google",
    utmCampaign: "black-friday",
    utmMedium: "cpc",
    page: "/pt-br/",
    idempotencyKey: null,
    eventId: null,
    sessionId: null,
    submittedAt: null,
    ...extra,
  }, { client, now });
  return id;
}

async function rows(db: Db) {
  return await db.query<{
    lead_id: number;
    destination: string;
    status: string;
    attempts: number;
    last_error: string | null;
    event_id: string;
    external_ref: string | null;
  }>(
    "select lead_id, destination, status, attempts, last_error, event_id, external_ref from lead_deliveries order by id",
  );
}

const random = () => 0.5;

dbTest(
  "lead delivery: the webhook gets the lead, its attribution and a signature its receiver verifies",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f, ["webhook"]);
      const id = await newLead(db, config, c.now());
      const report = await deliverDueLeads(db, config, createSenders(config, { now: c.now }), { now: c.now });
      assert.deepEqual(report, { delivered: 1, retrying: 0, failed: 0 });
      assert.equal(f.webhook.received.length, 1, "the fake verified the signature (401 otherwise)");
      const [hit] = f.webhook.received;
      const [row] = await rows(db);
      assert.equal(hit.id, row.event_id);
      assert.equal(hit.timestamp, Math.floor(c.now().getTime() / 1000));
      assert.deepEqual(hit.body, {
        type: "lead.created",
        timestamp: "2026-11-20T15:00:00.000Z",
        data: {
          eventId: row.event_id,
          lead: {
            id,
            name: `Maria ${leadNo}`,
            email: `maria${leadNo}@empresa.com.br`,
            whatsapp: "(11) 98765-4321",
            plan: "pro",
            planLabel: "Pro",
            submittedAt: "2026-11-20T15:00:00.000Z",
          },
          attribution: {
            utmSource: "google",
            utmCampaign: "black-friday",
            utmMedium: "cpc",
            page: "/pt-br/",
          },
        },
      });
      assert.equal(row.status, "delivered");
    } finally {
      await f.close();
    }
  },
);

dbTest(
  "lead delivery: a wrong webhook secret is refused by the receiver and kept as a permanent failure",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f, ["webhook"], {
        LEAD_WEBHOOK_SECRET: "whsec_" + btoa("another-secret-of-32-bytes-long!"),
      });
      await newLead(db, config, c.now());
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      const [row] = await rows(db);
      assert.equal(row.status, "failed");
      assert.match(row.last_error!, /^HTTP 401/);
      assert.equal(f.webhook.received.length, 0);
    } finally {
      await f.close();
    }
  },
);

dbTest(
  "lead delivery: Pipefy gets one createCard with the pipe, a title and the mapped fields",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f, ["pipefy"]);
      await newLead(db, config, c.now(), { utmCampaign: null, utmMedium: null });
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      assert.equal(f.pipefy.received.length, 1);
      const [hit] = f.pipefy.received;
      assert.equal(hit.authorization, `Bearer ${PIPEFY_TOKEN}`);
      assert.match(hit.query, /^mutation CreateLeadCard\(\$input: CreateCardInput!\)/);
      assert.deepEqual(hit.input, {
        pipe_id: "301234567",
        title: `Maria ${leadNo} — Pro`,
        fields_attributes: [
          { field_id: "nome", field_value: `Maria ${leadNo}` },
          { field_id: "e_mail", field_value: `maria${leadNo}@empresa.com.br` },
          { field_id: "whatsapp", field_value: "(11) 98765-4321" },
          { field_id: "plano", field_value: "Pro" },
          { field_id: "origem", field_value: "google" },
        ],
      });
      const [row] = await rows(db);
      assert.equal(row.status, "delivered");
      assert.equal(row.external_ref, "1000", "the card id is kept");
    } finally {
      await f.close();
    }
  },
);

dbTest(
  "lead delivery: a GraphQL error from Pipefy (inside a 200) is a permanent failure with its message",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f, ["pipefy"], { PIPEFY_PIPE_ID: "404" });
      await newLead(db, config, c.now());
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      const [row] = await rows(db);
      assert.equal(row.status, "failed");
      assert.equal(row.last_error, "GraphQL: Pipe not found (NOT_FOUND)");
    } finally {
      await f.close();
    }
  },
);

dbTest(
  "lead delivery: Trello gets a card titled with name and plan, contact and origin in the description",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f, ["trello"], { TRELLO_DUE_HOURS: "4" });
      await newLead(db, config, c.now());
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      assert.equal(f.trello.received.length, 1);
      const [hit] = f.trello.received;
      const [row] = await rows(db);
      assert.equal(
        new URL(hit.url).search,
        "",
        "key and token travel in the Authorization header, not the URL",
      );
      assert.deepEqual(hit.card, {
        idList: LIST_ID,
        name: `Maria ${leadNo} — Pro`,
        desc: [
          // What the lead typed, escaped for Trello's Markdown (renders as typed).
          `**E-mail:** maria${leadNo}@empresa\\.com\\.br`,
          "**WhatsApp:** \\(11\\) 98765\\-4321",
          "**Plano:** Pro",
          "**Origem:** google / black\\-friday / cpc",
          "**Página:** /pt\\-br/",
          "**Recebido em:** 20/11/2026, 12:00",
          "",
          "Painel: http://localhost:8000/pt-br/admin",
          `Ref.: ${row.event_id}`,
        ].join("\n"),
        pos: "top",
        due: "2026-11-20T19:00:00.000Z",
      });
    } finally {
      await f.close();
    }
  },
);

dbTest("lead delivery: the e-mail reaches the SMTP server in Portuguese, as text and HTML", async (db) => {
  const f = await startFakes();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(f, ["email"]);
    await newLead(db, config, c.now(), { name: "Joana <b>Dias</b>" });
    const senders = createSenders(config);
    await deliverDueLeads(db, config, senders, { now: c.now });
    senders.forEach((s) => s.close?.());
    assert.equal(f.email.received.length, 1);
    const [mail] = f.email.received;
    const [row] = await rows(db);
    assert.equal(mail.from, "site@zapflow.com.br");
    assert.deepEqual(mail.to, ["vendas@zapflow.com.br"]);
    const raw = mail.raw.replace(/=\r?\n/g, "");
    assert.match(raw, new RegExp(`Message-ID: <${row.event_id}@localhost>`));
    assert.match(raw, /Subject: =\?UTF-8\?Q\?Novo_lead/);
    assert.match(raw, /Reply-To: maria\d+@empresa\.com\.br/);
    assert.match(raw, /Content-Type: text\/plain; charset=utf-8/);
    assert.match(raw, /Content-Type: text\/html; charset=utf-8/);
    assert.match(raw, /Origem: google \/ black-friday \/ cpc/);
    assert.match(raw, /Joana &#60;b&#62;Dias&#60;\/b&#62;/, "the name is escaped in the HTML part");
    assert.match(raw, /https:\/\/wa\.me\/5511987654321/);
    assert.match(raw, /http:\/\/localhost:8000\/pt-br\/admin/);
    assert.equal(row.status, "delivered");
  } finally {
    await f.close();
  }
});

dbTest(
  "lead delivery: the e-mail sets Reply-To only to one plain address (never two, never a ?cc=)",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f, ["email"]);
      const emails = [
        "victim@corp.example,attacker@evil.example",
        "victim@corp.example?cc=attacker@evil.example",
        "Victim <victim@corp.example>,attacker@evil.example",
        "maria.souza+lead@empresa.com.br",
      ];
      for (const email of emails) await newLead(db, config, c.now(), { email });
      const senders = createSenders(config);
      await deliverDueLeads(db, config, senders, { now: c.now });
      senders.forEach((s) => s.close?.());
      assert.equal(f.email.received.length, emails.length);
      const raws = f.email.received.map((m) => m.raw.replace(/=\r?\n/g, ""));
      for (const [i, email] of emails.entries()) {
        const raw = raws[i]; // one worker sends a destination's rows in the order the leads came
        const replyTo = raw.match(/^Reply-To: (.*)$/m)?.[1];
        if (i < 3) {
          assert.equal(replyTo, undefined, `${email}: no Reply-To`);
          assert.ok(!raw.includes("attacker@evil.example>"), `${email}: no link to the attacker`);
          assert.ok(!/mailto:/.test(raw), `${email}: no mailto link`);
        } else {
          assert.equal(replyTo?.trim(), email);
          assert.ok(raw.includes(`mailto:${email}`));
        }
      }
    } finally {
      await f.close();
    }
  },
);

dbTest("lead delivery: one card, message and webhook per lead, however often the worker runs", async (db) => {
  const f = await startFakes();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(f);
    const senders = createSenders(config);
    const key = { idempotencyKey: "lead-key-1" };
    await newLead(db, config, c.now(), key);
    await newLead(db, config, c.now(), key); // the browser's re-send of the same lead
    for (let i = 0; i < 3; i++) {
      await deliverDueLeads(db, config, senders, { now: c.now });
      c.advance(DELIVERY_RETRY_WINDOW_MS);
    }
    senders.forEach((s) => s.close?.());
    for (const fake of f.all) assert.equal(fake.received.length, 1);
    assert.equal((await rows(db)).length, 4);
  } finally {
    await f.close();
  }
});

for (const cause of ["500", "refused"] as const) {
  dbTest(
    `lead delivery: every destination is retried after ${cause === "500" ? "a 500" : "a refused connection"}`,
    async (db) => {
      const f = await startFakes();
      try {
        const c = clock("2026-11-20T15:00:00Z");
        const config = configFor(f);
        const senders = createSenders(config);
        await newLead(db, config, c.now());
        for (const fake of f.all) cause === "500" ? (fake.mode = "500") : await fake.down();
        const first = await deliverDueLeads(db, config, senders, { now: c.now, random });
        assert.deepEqual(first, { delivered: 0, retrying: 4, failed: 0 });
        const reasons = Object.fromEntries((await rows(db)).map((r) => [r.destination, r.last_error]));
        if (cause === "500") {
          assert.match(reasons.webhook!, /^HTTP 500/);
          assert.match(reasons.email!, /^SMTP 451/);
        } else {
          for (const reason of Object.values(reasons)) assert.equal(reason, "conexão recusada");
        }
        for (const fake of f.all) cause === "500" ? (fake.mode = "ok") : await fake.up();
        assert.deepEqual(await deliverDueLeads(db, config, senders, { now: c.now }), {
          delivered: 0,
          retrying: 0,
          failed: 0,
        }, "not before the backoff");
        c.advance(2_000);
        assert.deepEqual(await deliverDueLeads(db, config, senders, { now: c.now }), {
          delivered: 4,
          retrying: 0,
          failed: 0,
        });
        senders.forEach((s) => s.close?.());
        for (const fake of f.all) assert.equal(fake.received.length, 1);
      } finally {
        await f.close();
      }
    },
  );
}

dbTest("lead delivery: a 400 (SMTP 550) is not retried and its reason is kept", async (db) => {
  const f = await startFakes();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(f);
    const senders = createSenders(config);
    await newLead(db, config, c.now());
    for (const fake of f.all) fake.mode = "400";
    assert.deepEqual(await deliverDueLeads(db, config, senders, { now: c.now }), {
      delivered: 0,
      retrying: 0,
      failed: 4,
    });
    const hits = f.all.map((fake) => fake.hits);
    for (const fake of f.all) fake.mode = "ok";
    c.advance(DELIVERY_RETRY_WINDOW_MS);
    await deliverDueLeads(db, config, senders, { now: c.now });
    senders.forEach((s) => s.close?.());
    assert.deepEqual(f.all.map((fake) => fake.hits), hits, "nothing was sent again");
    for (const row of await rows(db)) {
      assert.equal(row.status, "failed");
      assert.equal(row.attempts, 1);
      assert.match(
        row.last_error!,
        row.destination === "email" ? /^SMTP 550: .*mailbox unavailable/ : /^HTTP 400: .*invalid value/,
      );
    }
  } finally {
    await f.close();
  }
});

dbTest(
  "lead delivery: a destination that is down delays no other, and its queue waits behind two tries",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f);
      const senders = createSenders(config);
      await f.trello.down();
      for (let i = 0; i < 5; i++) await newLead(db, config, c.now());
      const report = await deliverDueLeads(db, config, senders, { now: c.now, random });
      senders.forEach((s) => s.close?.());
      assert.deepEqual(report, { delivered: 15, retrying: 5, failed: 0 });
      const trello = (await rows(db)).filter((r) => r.destination === "trello");
      assert.deepEqual(trello.map((r) => r.attempts), [1, 1, 0, 0, 0], "two tries, the rest held back");
    } finally {
      await f.close();
    }
  },
);

dbTest(
  "lead delivery: 50 leads queued through a 10-minute outage of every destination arrive once each",
  async (db) => {
    const f = await startFakes();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(f);
      const senders = createSenders(config);
      for (const fake of f.all) await fake.down();
      const outageEnds = c.now().getTime() + 10 * 60_000;
      const ids: number[] = [];
      // Leads arrive during the outage while the worker keeps polling (every 2 s in production; every 12 s here).
      while (c.now().getTime() < outageEnds) {
        if (ids.length < 50) ids.push(await newLead(db, config, c.now()));
        await deliverDueLeads(db, config, senders, { now: c.now });
        c.advance(12_000);
      }
      assert.equal(ids.length, 50);
      const attemptsDuringOutage = (await rows(db)).reduce((n, r) => n + r.attempts, 0);
      for (const fake of f.all) await fake.up();
      const back = c.now().getTime();
      let delivered = 0;
      while (delivered < 200 && c.now().getTime() - back < 2 * 3_600_000) {
        delivered += (await deliverDueLeads(db, config, senders, { now: c.now })).delivered;
        c.advance(2_000);
      }
      senders.forEach((s) => s.close?.());
      const lag = (c.now().getTime() - back) / 1000;
      console.log(
        `outage: ${attemptsDuringOutage} attempts in 10 min for 4 × 50 deliveries; all delivered ${lag} s (simulated) after the return`,
      );
      const leadIds = (hits: number[]) => hits.sort((a, b) => a - b);
      assert.deepEqual(
        leadIds(f.webhook.received.map((h) => (h.body.data as { lead: { id: number } }).lead.id)),
        ids,
      );
      assert.equal(f.pipefy.received.length, 50);
      assert.equal(new Set(f.pipefy.received.map((h) => h.input.title)).size, 50);
      assert.equal(new Set(f.trello.received.map((h) => h.card.name)).size, 50);
      assert.equal(f.trello.received.length, 50);
      assert.equal(new Set(f.email.received.map((m) => /Message-ID: (\S+)/.exec(m.raw)![1])).size, 50);
      assert.equal(f.email.received.length, 50);
      // A lead arriving during the outage is tried at most twice (one failure alone may be that lead's own
      // problem); from the second failure in a row on, it waits behind the destination's backoff.
      assert.ok(
        attemptsDuringOutage <= 4 * (2 * 50 + 12),
        `${attemptsDuringOutage} attempts: the outage was hammered`,
      );
      assert.ok(lag < 20 * 60, `delivered within 20 min of the return (${lag} s)`);
    } finally {
      await f.close();
    }
  },
);

dbTest("lead delivery: a transient failure is given up after 3 days; Reenviar sends it again", async (db) => {
  const f = await startFakes();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(f, ["webhook"]);
    const senders = createSenders(config, { now: c.now });
    const id = await newLead(db, config, c.now());
    f.webhook.mode = "500";
    while ((await rows(db))[0].status === "pending") {
      await deliverDueLeads(db, config, senders, { now: c.now });
      c.advance(3_600_000);
    }
    const [row] = await rows(db);
    assert.equal(row.status, "failed");
    assert.match(row.last_error!, /^desistiu após 3 dias de tentativas: HTTP 500/);
    assert.ok(row.attempts > 60 && row.attempts < 90, `${row.attempts} attempts in 3 days`);
    f.webhook.mode = "ok";
    assert.equal(await resendDelivery(db, id, "webhook", c.now()), true);
    await deliverDueLeads(db, config, senders, { now: c.now });
    assert.equal((await rows(db))[0].status, "delivered");
    assert.equal(f.webhook.received.length, 1);
    assert.equal(
      await resendDelivery(db, id, "webhook", c.now()),
      false,
      "a delivered one is not sent again",
    );
  } finally {
    await f.close();
  }
});

dbTest(
  "lead delivery: no secret reaches a stored reason or a log line, even when a destination echoes it",
  async (db) => {
    const echo = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      (req) => new Response(`bad auth ${req.headers.get("authorization")} at ${req.url}`, { status: 403 }),
    );
    const lines: string[] = [];
    setLogLevel("info");
    const restore = setLogSink((_level, line) => lines.push(line));
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const base = `http://127.0.0.1:${(echo.addr as Deno.NetAddr).port}`;
      const config = testConfig({
        LEAD_WEBHOOK_URL: `${base}/hook?token=url-secret-777`,
        LEAD_WEBHOOK_SECRET: SECRET,
        TRELLO_KEY,
        TRELLO_TOKEN,
        TRELLO_LIST_ID: LIST_ID,
        TRELLO_API_URL: base,
        PIPEFY_TOKEN,
        PIPEFY_PIPE_ID: "1",
        PIPEFY_FIELDS: "name:nome",
        PIPEFY_API_URL: `${base}/graphql`,
      });
      await newLead(db, config, c.now());
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      const stored = JSON.stringify(await rows(db));
      for (const secret of [TRELLO_KEY, TRELLO_TOKEN, PIPEFY_TOKEN, "url-secret-777", SECRET.slice(6)]) {
        assert.ok(!stored.includes(secret), `${secret} stored`);
        assert.ok(!lines.join("\n").includes(secret), `${secret} logged`);
      }
      assert.match(stored, /HTTP 403: bad auth Bearer \*\*\*/);
    } finally {
      restore();
      setLogLevel("warn");
      await echo.shutdown();
    }
  },
);

dbTest(
  "lead delivery: a receiver echoing the webhook's path and query ('Cannot POST /hook/SECRET') leaks neither",
  async (db) => {
    // An Express-like receiver: 404 with the path and query it did not expect, alone or after 290 characters
    // (the stored reason is cut at 300, which must not leave a piece of the token behind).
    let padding = "";
    const echo = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
      const url = new URL(req.url);
      return new Response(`${padding}Cannot POST ${url.pathname}${url.search}`, { status: 404 });
    });
    const lines: string[] = [];
    setLogLevel("info");
    const restore = setLogSink((_level, line) => lines.push(line));
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const host = `127.0.0.1:${(echo.addr as Deno.NetAddr).port}`;
      const config = testConfig({
        LEAD_WEBHOOK_URL: `http://${host}/hook/s3cr3tHookToken9f8e7d?key=q-secret-55&x=%C3%A9t%C3%A9-token`,
        LEAD_WEBHOOK_SECRET: SECRET,
      });
      const pieces = ["s3cr3tHookToken9f8e7d", "s3cr3", "q-secret-55", "été-token", "%C3%A9t%C3%A9", host];
      const first = await newLead(db, config, c.now());
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      padding = "x".repeat(290);
      const second = await newLead(db, config, c.now());
      await deliverDueLeads(db, config, createSenders(config), { now: c.now });
      const stored = await rows(db);
      assert.deepEqual(stored.map((r) => r.status), ["failed", "failed"], "a 404 is permanent");
      assert.equal(stored[0].last_error, "HTTP 404: Cannot POST ***");
      const shown = JSON.stringify([
        stored,
        await leadDeliveries(db, config, [first, second], new Date()),
        await destinationsPanel(db, config),
      ]);
      for (const piece of pieces) {
        assert.ok(!shown.includes(piece), `${piece} stored or shown`);
        assert.ok(!lines.join("\n").includes(piece), `${piece} logged`);
      }
      assert.ok(lines.some((l) => l.includes("Cannot POST ***")), "the reason is still logged, redacted");
    } finally {
      restore();
      setLogLevel("warn");
      await echo.shutdown();
    }
  },
);

dbTest("lead delivery: a reason stored before the redaction is redacted when shown", async (db) => {
  const c = clock("2026-11-20T15:00:00Z");
  const url = "https://hooks.example.net/catch/123456/abcdef/";
  const config = testConfig({ LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: SECRET });
  const id = await newLead(db, config, c.now());
  await db.query(
    `update lead_deliveries set status = 'failed', attempts = 1, last_failure_at = $2,
       last_error = 'HTTP 404: Cannot POST /catch/123456/abcdef/ (hook abcdef unknown; see webhooks docs)'
     where lead_id = $1`,
    [id, c.now()],
  );
  const [delivery] = await leadDeliveries(db, config, [id], new Date());
  assert.equal(delivery.lastError, "HTTP 404: Cannot POST *** (hook *** unknown; see webhooks docs)");
  const [panel] = await destinationsPanel(db, config);
  assert.equal(panel.lastError, delivery.lastError);
});

dbTest("lead delivery: the LGPD erase deletes the person's deliveries, pending or not", async (db) => {
  const f = await startFakes();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(f);
    const id = await newLead(db, config, c.now());
    const other = await newLead(db, config, c.now());
    assert.equal((await rows(db)).length, 8);
    assert.equal((await eraseLeads(db, [id], config.ANALYTICS_TZ)).leads, 1);
    const left = await rows(db);
    assert.equal(left.length, 4);
    assert.ok(left.every((r) => Number(r.lead_id) === other));
  } finally {
    await f.close();
  }
});

Deno.test({
  name: "postgres: lead delivery: two instances on one database deliver each lead once per destination",
  ignore: !dbKinds().includes("postgres"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await withOwnSchema("deliveries_two", 4, async (db) => {
      const f = await startFakes();
      const url = Deno.env.get("TEST_DATABASE_URL")!;
      const schema = (await db.query<{ s: string }>("select current_schema() as s"))[0].s;
      const second = await openDb({ databaseUrl: url, schema, max: 4 });
      try {
        const c = clock("2026-11-20T15:00:00Z");
        const config = configFor(f);
        // Each instance has its own pool and its own senders (its own SMTP transport), as two processes would.
        const a = createSenders(config);
        const b = createSenders(config);
        for (let i = 0; i < 40; i++) await newLead(db, config, c.now());
        const reports = await Promise.all([
          deliverDueLeads(db, config, a, { now: c.now }),
          deliverDueLeads(second, config, b, { now: c.now }),
          deliverDueLeads(db, config, a, { now: c.now }),
          deliverDueLeads(second, config, b, { now: c.now }),
        ]);
        [...a, ...b].forEach((s) => s.close?.());
        const perInstance = reports.map((r) => r.delivered);
        console.log(`two instances: deliveries per run ${perInstance.join(", ")}`);
        assert.equal(perInstance.reduce((x, y) => x + y, 0), 160);
        for (const fake of f.all) assert.equal(fake.received.length, 40);
        assert.equal(new Set(f.webhook.received.map((h) => h.id)).size, 40);
        assert.ok(perInstance.filter((n) => n > 0).length >= 2, "both instances took a share");
      } finally {
        await second.close();
        await f.close();
      }
    });
  },
});
