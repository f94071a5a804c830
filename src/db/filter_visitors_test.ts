// Unique visitors under one filter from the roll-up (db/filter_visitors.ts) are exactly the raw path's
// (db/filtered.ts filteredVisitorTotals), for every rolled-up filter, over periods of final days, the open
// day, a cut comparison, several months and days before the data, on a seeded database; the first run after
// the migration fills the days rolled up before it.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import { runRollups } from "../services/rollups.ts";
import { filteredVisitorTotals } from "./filtered.ts";
import { rolledFilterVisitorTotals } from "./filter_visitors.ts";
import {
  assertBackfillRefills,
  busiestFilters,
  busiestPairs,
  NOW,
  TZ,
} from "../../testing/rolled_filters.ts";

const PERIODS: { start: string; end: string; until: string | null }[] = [
  { start: "2026-11-01", end: "2026-11-30", until: null },
  { start: "2026-12-01", end: "2026-12-31", until: null },
  { start: "2026-11-02", end: "2026-12-02", until: null },
  { start: "2026-12-02", end: "2026-12-02", until: null },
  { start: "2026-12-01", end: "2026-12-01", until: "15:00:00" },
  { start: "2026-10-01", end: "2026-10-31", until: "15:00:00" },
  { start: "2026-11-01", end: "2026-11-02", until: "15:00:00" },
  { start: "2026-09-01", end: "2026-11-15", until: null },
];

dbTest("filter visitors: the roll-up per filter value gives the raw rows' unique visitors", async (db) => {
  await seedAnalytics(db, { visits: 4000, days: 45, timeZone: TZ, now: NOW, seed: 12 });
  await runRollups(db, TZ, NOW);
  let counted = 0;
  for (const f of [...await busiestFilters(db, 2), ...await busiestPairs(db)]) {
    for (const p of PERIODS) {
      const range = { start: p.start, end: p.end };
      const fast = await rolledFilterVisitorTotals(db, range, TZ, p.until, f);
      assert.ok(fast, `${JSON.stringify(f)}: the roll-up did not answer`);
      assert.deepEqual(
        fast,
        await filteredVisitorTotals(db, range, TZ, p.until, f),
        `${JSON.stringify(f)} ${JSON.stringify(p)}`,
      );
      counted += fast.uniqueVisitors;
    }
  }
  assert.ok(counted > 1000, `only ${counted} visitors counted`);
  // The numbers are the roll-up's: without them, the count falls to the raw part's.
  const f = (await busiestFilters(db, 1))[0], november = { start: "2026-11-01", end: "2026-11-30" };
  const before = await rolledFilterVisitorTotals(db, november, TZ, null, f);
  await db.query("delete from daily_filter_visitors");
  assert.ok(
    (await rolledFilterVisitorTotals(db, november, TZ, null, f))!.uniqueVisitors < before!.uniqueVisitors,
  );
});

dbTest(
  "filter visitors: the first run after the migration fills the days rolled up before it",
  async (db) => {
    await seedAnalytics(db, { visits: 800, days: 10, timeZone: TZ, now: NOW, seed: 4 });
    const f = { channel: "direct" }, period = { start: "2026-11-25", end: "2026-12-02" };
    const read = () => rolledFilterVisitorTotals(db, period, TZ, null, f);
    const rolled = await read();
    assert.ok(rolled && rolled.uniqueVisitors > 0);
    await assertBackfillRefills(db, "daily_filter_visitors", "filter_visitors_backfill", read, rolled);
    // Three filters, or the entry page, are not rolled up.
    assert.equal(await rolledFilterVisitorTotals(db, period, TZ, null, { entry_page: "/pt-br" }), null);
    assert.equal(
      await rolledFilterVisitorTotals(db, period, TZ, null, {
        channel: "direct",
        utm_source: "google",
        utm_campaign: "x",
      }),
      null,
    );
  },
);
