import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { RateLimited, ServiceUnavailable } from "../core/errors.ts";
import { dbTest } from "../../testing/db.ts";
import { closeTracking, recordEvent, type VisitInput } from "./tracking.ts";

const visit: VisitInput = {
  source: "/pt-br",
  sessionId: "s1",
  utmSource: "google",
  utmCampaign: null,
  utmMedium: null,
  utmTerm: "whatsapp crm",
  utmContent: null,
};
const NOW = new Date("2026-11-20T15:00:10Z");

/** `db` with every statement it runs recorded, and an optional fault. */
function spy(db: Db, fail?: (sql: string) => boolean): Db & { statements: string[] } {
  const statements: string[] = [];
  return {
    ...db,
    statements,
    query<R>(sql: string, params?: unknown[]) {
      statements.push(sql);
      if (fail?.(sql)) return Promise.reject(new Error("disk full"));
      return db.query<R>(sql, params);
    },
  };
}

async function count(db: Db, table: string): Promise<number> {
  return (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;
}

dbTest("tracking batches: 300 concurrent events land in a few statements, every one stored", async (db) => {
  const s = spy(db);
  const kinds = ["visit", "click", "conversion"] as const;
  await Promise.all(
    Array.from({ length: 300 }, (_, i) => recordEvent(s, kinds[i % 3], visit, `visitor-${i % 50}`, NOW)),
  );
  assert.equal(await count(db, "visits"), 100);
  assert.equal(await count(db, "clicks"), 100);
  assert.equal(await count(db, "conversions"), 100);
  // One statement per batch (counters and the three tables together), far fewer than one per event.
  assert.ok(s.statements.length <= 3, `${s.statements.length} statements`);
  const [term] = await db.query<{ utm_term: string; session_id: string }>(
    "select utm_term, session_id from visits limit 1",
  );
  assert.deepEqual(term, { utm_term: "whatsapp crm", session_id: "s1" });
  const hits = await db.query<{ hits: number }>(
    "select hits from rate_limits where bucket = 'tracking:visitor-7'",
  );
  assert.deepEqual(hits, [{ hits: 6 }]);
  await closeTracking(s);
});

dbTest(
  "tracking batches: the limit holds inside one batch; the 121st event of a client is refused",
  async (db) => {
    const results = await Promise.allSettled(
      Array.from({ length: 125 }, () => recordEvent(db, "visit", visit, "busy-visitor", NOW)),
    );
    const refused = results.filter((r) => r.status === "rejected");
    assert.equal(refused.length, 5);
    for (const r of refused) {
      assert.ok(r.reason instanceof RateLimited);
      assert.equal(r.reason.retryAfterSeconds, 50);
    }
    assert.equal(await count(db, "visits"), 120);
    await closeTracking(db);
  },
);

dbTest(
  "tracking batches: a failing write rejects every waiting event with 503 and stores none",
  async (db) => {
    const s = spy(db, (sql) => sql.includes("insert into clicks"));
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => recordEvent(s, i % 2 ? "click" : "visit", visit, `v${i}`, NOW)),
    );
    assert.ok(results.every((r) => r.status === "rejected" && r.reason instanceof ServiceUnavailable));
    assert.equal(await count(db, "visits"), 0); // the visits of the batch were rolled back with it
    assert.equal(await count(db, "rate_limits"), 0);
    // The next batch is independent of the failed one.
    const ok = spy(db);
    await recordEvent(ok, "visit", visit, "v1", NOW);
    assert.equal(await count(db, "visits"), 1);
    await closeTracking(s);
    await closeTracking(ok);
  },
);

dbTest("tracking batches: closing writes what is queued, then refuses new events with 503", async (db) => {
  const s = spy(db);
  const pending = Array.from({ length: 50 }, (_, i) => recordEvent(s, "visit", visit, `v${i}`, NOW));
  await closeTracking(s);
  assert.equal(await count(db, "visits"), 50);
  await Promise.all(pending);
  await assert.rejects(recordEvent(s, "visit", visit, "late", NOW), ServiceUnavailable);
  assert.equal(await count(db, "visits"), 50);
});
