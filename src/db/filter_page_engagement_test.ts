// "Tempo na página" under one filter from the roll-up (db/filter_page_engagement.ts) is exactly the raw path's
// (db/filtered.ts filteredPageEngagement), for every rolled-up filter, over periods of final days, the open day
// and days before the data, on a seeded database; a beacon counts for a page its session viewed that day; the
// first run after the migration fills the days rolled up before it.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seededTest } from "../../testing/seeded.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import { runRollups } from "../services/rollups.ts";
import { filteredPageEngagement } from "./filtered.ts";
import { rolledFilterPageEngagement } from "./filter_page_engagement.ts";
import {
  assertBackfillRefills,
  busiestFilters,
  busiestPairs,
  NOW,
  SEEDED,
  TZ,
} from "../../testing/rolled_filters.ts";

const PERIODS = [
  { start: "2026-11-01", end: "2026-11-30" },
  { start: "2026-12-01", end: "2026-12-31" },
  { start: "2026-11-02", end: "2026-12-02" },
  { start: "2026-12-02", end: "2026-12-02" },
  { start: "2026-09-01", end: "2026-11-15" },
];
const numbers = (rows: { page: string; views: number; engagedMs: number }[] | null) =>
  rows?.map((r) => ({ ...r, engagedMs: Number(r.engagedMs) }));

seededTest(
  "filter page engagement: the roll-up per filter value gives the raw rows' time on page",
  SEEDED,
  async (db) => {
    let withTime = 0;
    for (const f of [...await busiestFilters(db, 2), ...await busiestPairs(db)]) {
      for (const p of PERIODS) {
        const fast = await rolledFilterPageEngagement(db, p, TZ, 25, f);
        assert.ok(fast, `${JSON.stringify(f)}: the roll-up did not answer`);
        assert.deepEqual(
          numbers(fast),
          numbers(await filteredPageEngagement(db, p, TZ, 25, f)),
          `${JSON.stringify(f)} ${p.start}`,
        );
        withTime += fast.filter((r) => Number(r.engagedMs) > 0).length;
      }
    }
    assert.ok(withTime > 50, `only ${withTime} pages with visible time compared`);
    // Three filters, a page with another filter, or the entry page, are not rolled up.
    assert.equal(await rolledFilterPageEngagement(db, PERIODS[0], TZ, 25, { entry_page: "/pt-br" }), null);
    assert.equal(
      await rolledFilterPageEngagement(db, PERIODS[0], TZ, 25, {
        channel: "direct",
        utm_source: "google",
        utm_campaign: "x",
      }),
      null,
    );
  },
);

dbTest(
  "filter page engagement: a beacon counts for a page its session viewed, selected, that day",
  async (db) => {
    const visit = (at: string, session: string, page: string, channel: string) =>
      db.query(
        `insert into visits (occurred_at, visitor_key, session_id, source, channel) values ($1, 'k', $2, $3, $4)`,
        [at, session, page, channel],
      );
    const beacon = (at: string, session: string, page: string, ms: number) =>
      db.query(
        `insert into engagements (occurred_at, session_id, source, engaged_ms) values ($1, $2, $3, $4)`,
        [at, session, page, ms],
      );
    // Local days (UTC-3). s1 (paid) viewed /pt-br on 10/11 and sent beacons that day and on 12/11 (no view
    // then); s2 (direct) viewed /pt-br and sent a beacon; s3 (paid) viewed /en with no beacon.
    await visit("2026-11-10T12:00:00Z", "s1", "/pt-br", "paid_social");
    await beacon("2026-11-10T12:05:00Z", "s1", "/pt-br", 30_000);
    await beacon("2026-11-12T12:05:00Z", "s1", "/pt-br", 50_000);
    await visit("2026-11-10T13:00:00Z", "s2", "/pt-br", "direct");
    await beacon("2026-11-10T13:05:00Z", "s2", "/pt-br", 70_000);
    await visit("2026-11-11T12:00:00Z", "s3", "/en", "paid_social");
    const november = { start: "2026-11-01", end: "2026-11-30" };
    const expected = [
      { page: "/en", views: 1, engagedMs: 0 },
      { page: "/pt-br", views: 1, engagedMs: 30_000 },
    ];
    const f = { channel: "paid_social" };
    assert.deepEqual(numbers(await filteredPageEngagement(db, november, TZ, 10, f)), expected);
    await runRollups(db, TZ, new Date("2026-11-20T12:00:00Z"));
    assert.deepEqual(numbers(await rolledFilterPageEngagement(db, november, TZ, 10, f)), expected);
    assert.deepEqual(numbers(await rolledFilterPageEngagement(db, november, TZ, 1, f)), expected.slice(0, 1));
  },
);

dbTest(
  "filter page engagement: the first run after the migration fills the days rolled up before it",
  async (db) => {
    await seedAnalytics(db, { visits: 800, days: 10, timeZone: TZ, now: NOW, seed: 3 });
    const f = { channel: "direct" }, period = { start: "2026-11-25", end: "2026-12-02" };
    const read = async () => {
      const rows = await rolledFilterPageEngagement(db, period, TZ, 10, f);
      return rows && numbers(rows);
    };
    const rolled = (await read())!;
    await assertBackfillRefills(
      db,
      "daily_filter_page_engagement",
      "filter_page_engagement_backfill",
      read,
      rolled,
    );
  },
);
