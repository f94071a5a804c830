// The delivery worker against a local fake of the Graph API (Deno.serve on a free port) and a clock the
// test moves by hand.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { testConfig } from "../../testing/app.ts";
import { listMetaEvents } from "../../testing/meta_outbox.ts";
import { deliverDueMetaEvents, queueMetaEvent } from "./meta.ts";
import { backoffMs } from "./outbox.ts";
import { normalizePhone, sha256Hex } from "./meta_event.ts";

interface FakeGraph {
  url: string;
  requests: {
    path: string;
    body: { data: Record<string, unknown>[]; access_token: string; test_event_code?: string };
  }[];
  /** Event ids of every request answered 200 (what Meta accepted). */
  delivered: string[];
  /** What the next requests get: status and JSON body; "hang" answers only after the client's timeout. */
  mode: "ok" | "500" | "400" | "transient400" | "hang";
  down(): Promise<void>;
  up(): void;
  close(): Promise<void>;
}

function fakeGraph(): FakeGraph {
  let server: Deno.HttpServer | undefined;
  let port = 0;
  const fake: FakeGraph = {
    url: "",
    requests: [],
    delivered: [],
    mode: "ok",
    async down() {
      await server?.shutdown();
      server = undefined;
    },
    up() {
      server = Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, async (req) => {
        const body = await req.json();
        fake.requests.push({ path: new URL(req.url).pathname, body });
        if (fake.mode === "500") {
          return Response.json({ error: { message: "boom", code: 2 } }, { status: 500 });
        }
        if (fake.mode === "400") {
          return Response.json({
            error: { message: "Invalid parameter", type: "OAuthException", code: 100, fbtrace_id: "Abc" },
          }, { status: 400 });
        }
        if (fake.mode === "hang") {
          await new Promise((resolve) => setTimeout(resolve, 2_000)); // past the worker's 1.5 s timeout
          return Response.json({ error: { message: "late", code: 2 } }, { status: 503 });
        }
        if (fake.mode === "transient400") {
          return Response.json({ error: { message: "Temporary", code: 100, is_transient: true } }, {
            status: 400,
          });
        }
        fake.delivered.push(...body.data.map((e: Record<string, unknown>) => String(e.event_id)));
        return Response.json({ events_received: body.data.length, messages: [], fbtrace_id: "x" });
      });
      port = (server.addr as Deno.NetAddr).port;
      fake.url = `http://127.0.0.1:${port}/v26.0`;
    },
    close: () => fake.down(),
  };
  fake.up();
  return fake;
}

const client = {
  ip: "2804:14c::1",
  userAgent: "Mozilla/5.0 (iPhone) Safari/604.1",
  cookies: { fbp: "fb.1.1596403881668.1116446470" },
};

function clock(start: string) {
  let t = new Date(start).getTime();
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

function configFor(fake: FakeGraph, extra: Record<string, string> = {}) {
  return testConfig({
    META_PIXEL_ID: "123456789012345",
    META_ACCESS_TOKEN: "tok",
    META_GRAPH_URL: fake.url,
    ...extra,
  });
}

const lead = (eventId: string) => ({
  eventName: "Lead",
  eventId,
  eventSourceUrl: "https://www.example.com.br/pt-br/#precos",
  customData: { content_name: "Pro" },
  email: "  John_Smith@Gmail.com ",
  phone: "(11) 98765-4321",
});

Deno.test("meta: Brazilian phone numbers are normalized with country code 55", () => {
  assert.equal(normalizePhone("(11) 98765-4321"), "5511987654321");
  assert.equal(normalizePhone("11 4003-9120"), "551140039120");
  assert.equal(normalizePhone("+55 11 98765-4321"), "5511987654321");
  assert.equal(normalizePhone("5511987654321"), "5511987654321");
  assert.equal(normalizePhone("0 21 11 98765-4321"), "5511987654321");
  assert.equal(normalizePhone("00 55 11 98765-4321"), "5511987654321");
  assert.equal(normalizePhone("+1 (650) 555-1212"), "16505551212");
  assert.equal(normalizePhone("123"), null);
});

Deno.test("meta: backoff grows exponentially with jitter and is capped at one hour", () => {
  assert.equal(backoffMs(1, () => 0), 1000);
  assert.equal(backoffMs(1, () => 1), 2000);
  assert.equal(backoffMs(3, () => 1), 8000);
  assert.equal(backoffMs(40, () => 1), 3_600_000);
});

dbTest("meta: the delivered payload has hashed e-mail and phone and the browser's event id", async (db) => {
  const fake = fakeGraph();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(fake, { META_TEST_EVENT_CODE: "TEST123" });
    assert.ok(await queueMetaEvent(db, config, lead("lead_1763650800000_a1b2c3"), client, c.now()));
    const report = await deliverDueMetaEvents(db, config, { now: c.now });
    assert.deepEqual(report, { sent: 1, retrying: 0, failed: 0 });
    assert.equal(fake.requests.length, 1);
    const { path, body } = fake.requests[0];
    assert.equal(path, "/v26.0/123456789012345/events");
    assert.equal(body.access_token, "tok");
    assert.equal(body.test_event_code, "TEST123");
    assert.deepEqual(body.data, [{
      event_name: "Lead",
      event_time: Math.floor(new Date("2026-11-20T15:00:00Z").getTime() / 1000),
      event_id: "lead_1763650800000_a1b2c3",
      action_source: "website",
      event_source_url: "https://www.example.com.br/pt-br/#precos",
      custom_data: { content_name: "Pro" },
      user_data: {
        client_ip_address: "2804:14c::1",
        client_user_agent: "Mozilla/5.0 (iPhone) Safari/604.1",
        fbp: "fb.1.1596403881668.1116446470",
        // Meta's own example: john_smith@gmail.com
        em: ["62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f"],
        ph: [await sha256Hex("5511987654321")],
      },
    }]);
    const [row] = await listMetaEvents(db);
    assert.equal(row.status, "sent");
    assert.equal("user_data" in row.payload, false, "IP and user agent are purged once sent");
    // Nothing left to send.
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 0,
      retrying: 0,
      failed: 0,
    });
    assert.equal(fake.requests.length, 1);
  } finally {
    await fake.close();
  }
});

dbTest("meta: a 500 is retried after a backoff and then delivered", async (db) => {
  const fake = fakeGraph();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(fake);
    await queueMetaEvent(db, config, lead("lead_1_a"), client, c.now());
    fake.mode = "500";
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 0,
      retrying: 1,
      failed: 0,
    });
    // Not due yet: nothing is sent before the backoff has passed.
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 0,
      retrying: 0,
      failed: 0,
    });
    assert.equal(fake.requests.length, 1);
    fake.mode = "ok";
    c.advance(5_000);
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 1,
      retrying: 0,
      failed: 0,
    });
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[1].body.data[0].event_id, "lead_1_a");
    const [row] = await listMetaEvents(db);
    assert.equal(row.status, "sent");
    assert.equal(row.attempts, 2);
  } finally {
    await fake.close();
  }
});

dbTest("meta: a 400 validation error is recorded as failed and never retried", async (db) => {
  const fake = fakeGraph();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(fake);
    await queueMetaEvent(db, config, lead("lead_2_b"), client, c.now());
    fake.mode = "400";
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 0,
      retrying: 0,
      failed: 1,
    });
    fake.mode = "ok";
    c.advance(48 * 3600_000);
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 0,
      retrying: 0,
      failed: 0,
    });
    assert.equal(fake.requests.length, 1);
    const [row] = await listMetaEvents(db);
    assert.equal(row.status, "failed");
    assert.match(row.lastError ?? "", /400 code 100: Invalid parameter \(fbtrace_id Abc\)/);
    assert.equal("user_data" in row.payload, false);
  } finally {
    await fake.close();
  }
});

dbTest("meta: is_transient errors are retried", async (db) => {
  const fake = fakeGraph();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(fake);
    await queueMetaEvent(db, config, lead("lead_3_c"), client, c.now());
    fake.mode = "transient400";
    assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now }), {
      sent: 0,
      retrying: 1,
      failed: 0,
    });
  } finally {
    await fake.close();
  }
});

dbTest(
  "meta: nothing is lost while the Graph API is down; all delivered once, when it is back",
  async (db) => {
    const fake = fakeGraph();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(fake);
      await fake.down();
      const ids = Array.from({ length: 25 }, (_, i) => `lead_${i}_down`);
      for (const id of ids) {
        await queueMetaEvent(db, config, lead(id), client, c.now());
        c.advance(60_000);
      }
      // Six hours of failed attempts while the fake is down.
      for (let i = 0; i < 30; i++) {
        await deliverDueMetaEvents(db, config, { now: c.now });
        c.advance(12 * 60_000);
      }
      assert.ok((await listMetaEvents(db)).every((r) => r.status === "pending" && r.attempts > 1));
      fake.up();
      c.advance(3600_000);
      const report = await deliverDueMetaEvents(db, config, { now: c.now });
      assert.equal(report.sent, 25);
      const delivered = fake.requests.flatMap((r) => r.body.data.map((e) => e.event_id));
      assert.deepEqual(delivered.sort(), ids.sort());
      assert.ok((await listMetaEvents(db)).every((r) => r.status === "sent"));
    } finally {
      await fake.close();
    }
  },
);

dbTest(
  "meta: Graph API out for 48 hours (errors, refused connections, timeouts): nothing lost, each event delivered exactly once within an hour of its return",
  async (db) => {
    const fake = fakeGraph();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(fake);
      const STEP_MS = 10 * 60_000; // the worker runs every 2 s in production; every 10 min is its worst case here
      const ids: string[] = [];
      let maxGapMs = 0; // longest wait between two attempts at the same event
      const lastTry = new Map<string, number>();
      // 48 hours: 500s for 16 h, connections refused for 16 h, 500s for 16 h with three rounds of timeouts.
      for (let step = 0; step < 48 * 6; step++) {
        const hour = step / 6;
        if (step === 16 * 6) await fake.down();
        if (step === 32 * 6) fake.up();
        fake.mode = hour >= 40 && hour < 40.5 ? "hang" : "500";
        if (step % 4 === 0) {
          const id = `lead_outage_${step}`;
          ids.push(id);
          await queueMetaEvent(db, config, lead(id), client, c.now());
        }
        await deliverDueMetaEvents(db, config, { now: c.now });
        for (const row of await listMetaEvents(db)) {
          if (!row.attempts) continue;
          const previous = lastTry.get(row.eventId);
          if (previous !== undefined && row.attempts > (lastTry.get(`${row.eventId}#n`) ?? 0)) {
            maxGapMs = Math.max(maxGapMs, c.now().getTime() - previous);
          }
          if (row.attempts > (lastTry.get(`${row.eventId}#n`) ?? 0)) {
            lastTry.set(row.eventId, c.now().getTime());
            lastTry.set(`${row.eventId}#n`, row.attempts);
          }
        }
        c.advance(STEP_MS);
      }
      const during = await listMetaEvents(db);
      assert.equal(fake.delivered.length, 0);
      assert.ok(during.every((r) => r.status === "pending"), "an event was given up during the outage");

      fake.mode = "ok";
      const backAt = c.now().getTime();
      let allSentAt = 0;
      for (let step = 0; step < 24 && !allSentAt; step++) {
        await deliverDueMetaEvents(db, config, { now: c.now });
        if ((await listMetaEvents(db)).every((r) => r.status === "sent")) allSentAt = c.now().getTime();
        else c.advance(STEP_MS);
      }
      const counts = new Map<string, number>();
      for (const id of fake.delivered) counts.set(id, (counts.get(id) ?? 0) + 1);
      console.log(
        `meta outage 48 h: ${ids.length} events queued, ${counts.size} delivered, ${
          [...counts.values()].filter((n) => n > 1).length
        } delivered twice, longest wait between attempts ${
          Math.round(maxGapMs / 60_000)
        } min, all delivered ${
          Math.round((allSentAt - backAt) / 60_000)
        } min after the API returned (worker every 10 min)`,
      );
      assert.ok(allSentAt > 0, "not everything was delivered within 4 hours of the API's return");
      assert.ok(allSentAt - backAt <= 70 * 60_000, "an event waited more than the one-hour backoff cap");
      assert.deepEqual([...counts.keys()].sort(), [...ids].sort());
      assert.ok([...counts.values()].every((n) => n === 1), "an event was delivered twice");
      assert.ok(maxGapMs <= 70 * 60_000, `an event waited ${maxGapMs} ms between attempts`);
    } finally {
      await fake.close();
    }
  },
);

dbTest(
  "meta: transient failures give up after 6 days, before Meta would refuse the event as too old",
  async (db) => {
    const fake = fakeGraph();
    try {
      const c = clock("2026-11-20T15:00:00Z");
      const config = configFor(fake);
      await queueMetaEvent(db, config, lead("lead_4_d"), client, c.now());
      fake.mode = "500";
      for (let hour = 0; hour < 5 * 24; hour++) {
        await deliverDueMetaEvents(db, config, { now: c.now });
        c.advance(3600_000);
      }
      assert.equal((await listMetaEvents(db))[0].status, "pending"); // still retrying after 5 days
      for (let hour = 0; hour < 2 * 24; hour++) {
        await deliverDueMetaEvents(db, config, { now: c.now });
        c.advance(3600_000);
      }
      const [row] = await listMetaEvents(db);
      assert.equal(row.status, "failed");
      assert.match(row.lastError ?? "", /gave up after 6 days/);
    } finally {
      await fake.close();
    }
  },
);

dbTest("meta: nothing is queued or sent without a pixel id and token", async (db) => {
  const config = testConfig({ META_PIXEL_ID: "123456789012345" });
  const c = clock("2026-11-20T15:00:00Z");
  assert.equal(await queueMetaEvent(db, config, lead("lead_5_e"), client, c.now()), false);
  assert.equal((await listMetaEvents(db)).length, 0);
  const fetchNever = () => Promise.reject(new Error("must not be called"));
  assert.deepEqual(await deliverDueMetaEvents(db, config, { now: c.now, fetch: fetchNever }), {
    sent: 0,
    retrying: 0,
    failed: 0,
  });
});

dbTest("meta: two workers delivering at the same time send each event exactly once", async (db) => {
  // On PGlite (one connection) the two interleave query by query; on PostgreSQL they truly race.
  const fake = fakeGraph();
  try {
    const c = clock("2026-11-20T15:00:00Z");
    const config = configFor(fake);
    for (let i = 0; i < 40; i++) await queueMetaEvent(db, config, lead(`lead_${i}_pair`), client, c.now());
    const [a, b] = await Promise.all([
      deliverDueMetaEvents(db, config, { now: c.now }),
      deliverDueMetaEvents(db, config, { now: c.now }),
    ]);
    assert.equal(a.sent + b.sent, 40);
    const delivered = fake.requests.flatMap((r) => r.body.data.map((e) => e.event_id));
    assert.equal(delivered.length, 40);
    assert.equal(new Set(delivered).size, 40);
  } finally {
    await fake.close();
  }
});
