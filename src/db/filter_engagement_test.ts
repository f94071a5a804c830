// The engagement roll-up per filter value (db/filter_engagement.ts) gives exactly the raw path's figures
// (db/filtered.ts filteredEngagementTotals, and the daily unique visitors) for every rolled-up filter, over
// periods of final days, the open day, a cut comparison and days before the data, on a seeded database.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seededTest } from "../../testing/seeded.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import { runRollups } from "../services/rollups.ts";
import { filteredDailyUniqueVisitors, filteredEngagementTotals } from "./filtered.ts";
import {
  rolledFilter,
  rolledFilterDailyUniqueVisitors,
  rolledFilterEngagementTotals,
} from "./filter_engagement.ts";
import { busiestFilters, busiestPairs, NOW, SEEDED, TZ } from "../../testing/rolled_filters.ts";
import type { Filters } from "../shared/filters.ts";

const PERIODS: { start: string; end: string; until: string | null }[] = [
  { start: "2026-11-01", end: "2026-11-30", until: null },
  { start: "2026-12-01", end: "2026-12-31", until: null },
  { start: "2026-11-02", end: "2026-12-02", until: null },
  { start: "2026-12-02", end: "2026-12-02", until: null },
  { start: "2026-10-01", end: "2026-10-31", until: "15:00:00" },
  { start: "2026-11-01", end: "2026-11-02", until: "15:00:00" },
  { start: "2026-09-01", end: "2026-11-15", until: null },
];

seededTest(
  "filter engagement: the roll-up per filter value gives the raw rows' figures",
  SEEDED,
  async (db) => {
    const rolled = await db.query<{ n: number }>("select count(*)::int as n from daily_filter_engagement");
    assert.ok(rolled[0].n > 0, "nothing rolled up");
    // The two most viewed values of each dimension, and the busiest combination of each pair tested.
    for (const f of [...await busiestFilters(db, 2), ...await busiestPairs(db)]) {
      const name = JSON.stringify(f);
      for (const p of PERIODS) {
        const range = { start: p.start, end: p.end };
        const fast = await rolledFilterEngagementTotals(db, range, TZ, p.until, f);
        const raw = await filteredEngagementTotals(db, range, TZ, p.until, f);
        assert.ok(fast, `${name}: the roll-up did not answer`);
        if (p.until === null) {
          assert.deepEqual(
            await rolledFilterDailyUniqueVisitors(db, range, TZ, f),
            await filteredDailyUniqueVisitors(db, range, TZ, f),
            `unique visitors ${name} ${JSON.stringify(p)}`,
          );
        }
        assert.deepEqual(
          { ...fast, engagedMs: Number(fast.engagedMs) },
          { ...raw, engagedMs: Number(raw.engagedMs) },
          `${name} ${JSON.stringify(p)}`,
        );
      }
    }
    // November's figures under the busiest channel are not zero (the comparison above means something).
    const top = await db.query<{ v: string }>(
      "select channel as v from visits where channel is not null group by 1 order by count(*) desc limit 1",
    );
    const nov = await rolledFilterEngagementTotals(db, { start: "2026-11-01", end: "2026-11-30" }, TZ, null, {
      channel: top[0].v,
    });
    assert.ok(nov!.sessions > 0 && nov!.bounces > 0 && nov!.engagedMs > 0, JSON.stringify(nov));
  },
);

dbTest("filter engagement: raw rows until the first roll-up run after the migration", async (db) => {
  await seedAnalytics(db, { visits: 300, days: 5, timeZone: TZ, now: NOW, seed: 2 });
  // seedAnalytics ran the roll-ups: put the backfill flag back as migration 00022 leaves it.
  await db.query("delete from daily_filter_engagement");
  await db.query("insert into filter_engagement_backfill default values");
  const f = { channel: "direct" };
  assert.equal(
    await rolledFilterEngagementTotals(db, { start: "2026-11-28", end: "2026-12-02" }, TZ, null, f),
    null,
  );
  // The next run (the watermark moves) writes the kept days and clears the flag.
  await runRollups(db, TZ, new Date(NOW.getTime() + 10 * 60_000));
  assert.ok((await db.query("select 1 from daily_filter_engagement where day < '2026-12-01'")).length > 0);
  const fast = await rolledFilterEngagementTotals(
    db,
    { start: "2026-11-28", end: "2026-12-02" },
    TZ,
    null,
    f,
  );
  const raw = await filteredEngagementTotals(db, { start: "2026-11-28", end: "2026-12-02" }, TZ, null, f);
  assert.deepEqual(fast && { ...fast, engagedMs: Number(fast.engagedMs) }, {
    ...raw,
    engagedMs: Number(raw.engagedMs),
  });
});

Deno.test(
  "filter engagement: rolled up: one filter a page view carries, two of the touch; not entry page, page + other, three",
  () => {
    const named = (f: Filters) => {
      const d = rolledFilter(f);
      return d && { name: d.name, value: d.value, sql: d.sql("v.") };
    };
    assert.deepEqual(named({ channel: "paid_social" }), {
      name: "channel",
      value: "paid_social",
      sql: "v.channel",
    });
    assert.deepEqual(named({ page: "/pt-br" }), { name: "page", value: "/pt-br", sql: "v.source" });
    // A pair is named and valued in the roll-up's order of filters, whatever the view's order.
    assert.deepEqual(named({ utm_source: "facebook", channel: "paid_social" }), {
      name: "channel+utm_source",
      value: "paid_social\u001ffacebook",
      sql: "nullif(v.channel, '') || chr(31) || nullif(v.utm_source, '')",
    });
    assert.equal(rolledFilter({ entry_page: "/pt-br" }), null);
    assert.equal(rolledFilter({ channel: "paid_social", utm_source: "facebook", utm_campaign: "x" }), null);
    assert.equal(rolledFilter({ channel: "paid_social", page: "/pt-br" }), null);
    assert.equal(rolledFilter({ channel: "paid_social", entry_page: "/pt-br" }), null);
    assert.equal(rolledFilter({ channel: "paid_social", device: "mobile" }), null);
    assert.equal(rolledFilter({}), null);
  },
);
