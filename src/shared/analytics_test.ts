import assert from "node:assert/strict";
import {
  averageLeadsPerDay,
  averageVisitsPerDay,
  changePercent,
  daysInclusive,
  isDay,
  mergeDaily,
  monthOf,
  performanceOf,
  previousPeriod,
  ratePercent,
  todayIn,
} from "./analytics.ts";

Deno.test("analytics math: rates have one decimal and are 0 without a denominator", () => {
  assert.equal(ratePercent(1, 3), 33.3);
  assert.equal(ratePercent(2, 3), 66.7);
  assert.equal(ratePercent(5, 0), 0);
  assert.equal(ratePercent(0, 0), 0);
});

Deno.test("analytics math: performance bands at 5% and 10%", () => {
  assert.equal(performanceOf(10), "excellent");
  assert.equal(performanceOf(9.9), "good");
  assert.equal(performanceOf(5), "good");
  assert.equal(performanceOf(4.9), "poor");
  assert.equal(performanceOf(0), "poor");
});

Deno.test("analytics math: average leads divides by chart days, 1 when there are none", () => {
  assert.equal(averageLeadsPerDay([]), 0);
  const points = mergeDaily([{ date: "2026-01-02", count: 3 }], [{ date: "2026-01-01", count: 4 }], []);
  assert.equal(points.length, 2);
  assert.equal(averageLeadsPerDay(points), 1.5);
});

Deno.test("analytics math: average visitors divides by the days that have visits", () => {
  assert.equal(averageVisitsPerDay([]), 0);
  assert.equal(
    averageVisitsPerDay([{ date: "2026-01-01", count: 5 }, { date: "2026-01-09", count: 2 }]),
    3.5,
  );
});

Deno.test("analytics math: change against the previous period", () => {
  assert.equal(changePercent(150, 100), 50);
  assert.equal(changePercent(50, 100), -50);
  assert.equal(changePercent(0, 0), 0);
  assert.equal(changePercent(3, 0), null);
});

Deno.test("analytics math: calendar helpers", () => {
  assert.equal(isDay("2026-02-28"), true);
  assert.equal(isDay("2026-02-29"), false);
  assert.equal(isDay("2026-2-1"), false);
  assert.equal(daysInclusive("2026-11-01", "2026-11-30"), 30);
  assert.deepEqual(previousPeriod("2026-11-01", "2026-11-30"), { start: "2026-10-02", end: "2026-10-31" });
  assert.deepEqual(previousPeriod("2026-03-01", "2026-03-01"), { start: "2026-02-28", end: "2026-02-28" });
  assert.deepEqual(monthOf("2028-02-10"), { start: "2028-02-01", end: "2028-02-29" });
  // 02:30 UTC on 1 December is still 30 November in São Paulo.
  assert.equal(todayIn("America/Sao_Paulo", new Date("2026-12-01T02:30:00Z")), "2026-11-30");
});
