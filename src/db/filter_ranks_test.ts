// The visit rankings under one filter from the roll-up (db/filter_ranks.ts) are exactly the raw path's
// (db/filtered.ts), for every rolled-up filter and ranking key, on a seeded database whose last day is open.
import assert from "node:assert/strict";
import { seededTest } from "../../testing/seeded.ts";
import { filteredRanking, filteredRankingWithPrevious } from "./filtered.ts";
import type { RolledRanking } from "./rankings.ts";
import { rolledFilteredRanking, rolledFilteredRankingWithPrevious } from "./filter_ranks.ts";
import { busiestFilters, busiestPairs, SEEDED, TZ } from "../../testing/rolled_filters.ts";

const COLUMNS: RolledRanking[] = [
  "utm_source",
  "utm_campaign",
  "page",
  "page_path",
  "source",
  "channel",
  "entry_page",
];
const PERIODS = [
  { start: "2026-11-01", end: "2026-11-30" },
  { start: "2026-12-01", end: "2026-12-31" },
  { start: "2026-11-02", end: "2026-12-02" },
  { start: "2026-12-02", end: "2026-12-02" },
];

seededTest(
  "filter ranks: the rankings under one filter from the roll-up are the raw rows' rankings",
  SEEDED,
  async (db) => {
    let compared = 0;
    for (const f of [...await busiestFilters(db, 1), ...await busiestPairs(db)]) {
      const key = JSON.stringify(f);
      for (const c of COLUMNS) {
        for (const p of PERIODS) {
          const fast = await rolledFilteredRanking(db, c, p, TZ, 25, f);
          assert.ok(fast, `${key}: no roll-up answer for ${c}`);
          assert.deepEqual(
            fast,
            await filteredRanking(db, c, p, TZ, 25, f),
            `${key} ${c} ${p.start}`,
          );
          compared += fast.length;
        }
        const range = { start: "2026-11-17", end: "2026-12-02" },
          previous = { start: "2026-11-01", end: "2026-11-16" };
        const fast = await rolledFilteredRankingWithPrevious(db, c, range, previous, TZ, 25, f);
        assert.deepEqual(
          fast,
          await filteredRankingWithPrevious(db, c, range, previous, TZ, 25, f),
          `${key} ${c} with previous`,
        );
      }
    }
    assert.ok(compared > 100, `only ${compared} rows compared`);
    // Three filters, or the entry page, are not rolled up.
    assert.equal(await rolledFilteredRanking(db, "page", PERIODS[0], TZ, 25, { entry_page: "/pt-br" }), null);
    assert.equal(
      await rolledFilteredRanking(db, "page", PERIODS[0], TZ, 25, {
        channel: "direct",
        utm_source: "google",
        utm_campaign: "x",
      }),
      null,
    );
  },
);
