import assert from "node:assert/strict";
import { isoWeekday, isoWeekOf, isoWeekRange, previousIsoWeek } from "./iso_week.ts";

Deno.test("iso week: the week of a day, across year ends", () => {
  assert.equal(isoWeekday("2026-11-23"), 1);
  assert.equal(isoWeekday("2026-11-29"), 7);
  assert.equal(isoWeekOf("2026-11-16"), "2026-W47");
  assert.equal(isoWeekOf("2026-11-22"), "2026-W47");
  assert.equal(isoWeekOf("2026-11-23"), "2026-W48");
  // 2021-01-01 is a Friday: still week 53 of 2020.
  assert.equal(isoWeekOf("2021-01-01"), "2020-W53");
  assert.equal(isoWeekOf("2021-01-04"), "2021-W01");
  // 2024-12-30 is a Monday whose Thursday is in 2025.
  assert.equal(isoWeekOf("2024-12-30"), "2025-W01");
  assert.equal(isoWeekOf("2026-12-31"), "2026-W53");
});

Deno.test("iso week: the days of a named week, and weeks that do not exist", () => {
  assert.deepEqual(isoWeekRange("2026-W47"), { start: "2026-11-16", end: "2026-11-22" });
  assert.deepEqual(isoWeekRange("2025-W01"), { start: "2024-12-30", end: "2025-01-05" });
  assert.deepEqual(isoWeekRange("2020-W53"), { start: "2020-12-28", end: "2021-01-03" });
  assert.equal(isoWeekRange("2025-W53"), null);
  assert.equal(isoWeekRange("2026-W00"), null);
  assert.equal(isoWeekRange("2026-W54"), null);
  assert.equal(isoWeekRange("2026-47"), null);
  assert.equal(isoWeekRange("2026-W7"), null);
  assert.equal(previousIsoWeek("2026-W01"), "2025-W52");
  assert.equal(previousIsoWeek("2021-W01"), "2020-W53");
  assert.equal(previousIsoWeek("2026-W47"), "2026-W46");
});
