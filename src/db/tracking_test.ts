import assert from "node:assert/strict";
import type { Db } from "./client.ts";
import { type BatchedEvent, storeEventBatch } from "./tracking.ts";
import { dbTest, withOwnSchema } from "../../testing/db.ts";
import { type AnyTrackedEvent, columnsOf, EVENT_TABLES } from "./event_columns.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

function event(i: number, at: Date): BatchedEvent {
  const visitorKey = i.toString(16).padStart(32, "0");
  return {
    table: "visits",
    event: {
      occurredAt: at,
      visitorKey,
      sessionId: `s-${i}`,
      source: "/pt-br",
      utmSource: "google",
      utmCampaign: null,
      utmMedium: null,
      utmTerm: null,
      utmContent: null,
    },
    bucket: `tracking:${visitorKey}`,
    windowStart: new Date(Math.floor(at.getTime() / 60_000) * 60_000),
  };
}

async function setting(db: Db): Promise<string> {
  const [row] = await db.query<{ synchronous_commit: string }>("show synchronous_commit");
  return row.synchronous_commit;
}

dbTest(
  "tracking batch: stored atomically, and its relaxed commit does not leak to the connection",
  async (db) => {
    const before = await setting(db);
    const at = new Date("2026-11-20T15:00:10.250Z");
    const refused = await storeEventBatch(db, 120, [event(1, at), event(2, at), event(3, at)]);
    assert.equal(refused.size, 0);
    const [row] = await db.query<{ n: number }>("select count(*)::int as n from visits");
    assert.equal(row.n, 3);
    assert.equal(await setting(db), before, "synchronous_commit is back to its value after the batch");
  },
);

// With one connection, the next statement surely runs where the batch did: the setting must be back to "on",
// or every later write on that connection (leads, sessions) would commit without waiting for the disk.
Deno.test({
  name: "postgres: a tracking batch's asynchronous commit stays within its own statement",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withOwnSchema("sync", 1, async (db) => {
      assert.equal(await setting(db), "on");
      for (let round = 0; round < 3; round++) {
        await storeEventBatch(db, 120, [event(round, new Date())]);
        assert.equal(await setting(db), "on", `after batch ${round + 1}`);
      }
    }),
});

// The batch's packing, recordset and insert lists all come from db/event_columns.ts: a full event of each
// kind must come back column for column, as the column list says the server stores it.
dbTest("tracking batch: every listed column of each table is stored as the column list says", async (db) => {
  const at = new Date("2026-11-20T15:00:10.250Z");
  const full: AnyTrackedEvent = {
    occurredAt: at,
    visitorKey: "0".repeat(31) + "9",
    sessionId: "s-full",
    source: "/pt-br/clientes",
    utmSource: "google",
    utmCampaign: "black-friday",
    utmMedium: "cpc",
    utmTerm: "chatbot",
    utmContent: "banner",
    linkKeys: ["a".repeat(32), "b".repeat(32)],
    trafficSource: "google",
    trafficMedium: "cpc",
    channel: "paid_search",
    referrerHost: "www.google.com",
    clickIds: ["gclid"],
    entry: true,
    engagedMs: 1500,
    audience: {
      device: "mobile",
      browser: "Samsung Internet",
      browserVersion: "23",
      os: "Android",
      osVersion: "14",
      country: "BR",
      region: "SP",
    },
  };
  const batch = EVENT_TABLES.map((table) => ({ ...event(0, at), table, event: full }));
  assert.equal((await storeEventBatch(db, 120, batch)).size, 0);
  for (const table of EVENT_TABLES) {
    const columns = columnsOf(table);
    const [row] = await db.query<Record<string, unknown>>(
      `select ${columns.map((c) => c.name).join(", ")} from ${table}`,
    );
    for (const c of columns) {
      const stored = row[c.name] instanceof Date ? (row[c.name] as Date).getTime() : row[c.name];
      const expected = c.value(full);
      assert.deepEqual(
        stored,
        expected instanceof Date ? expected.getTime() : expected,
        `${table}.${c.name}`,
      );
    }
  }
  // Columns outside a table's list stay empty there (conversions take their channel from the lead instead).
  const [conversion] = await db.query<{ channel: string | null }>("select channel from conversions");
  assert.equal(conversion.channel, null);
});
