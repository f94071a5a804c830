import assert from "node:assert/strict";
import {
  averageLeadsPerDay,
  averageVisitsPerDay,
  changePercent,
  chartDays,
  comparisonRange,
  daysInclusive,
  isDay,
  mergeDaily,
  monthOf,
  performanceOf,
  previousPeriod,
  ratePercent,
  timeIn,
  todayIn,
} from "./dashboard_math.ts";

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

// [today, preset, period start, period end, compared start, compared end, cut at 09:00:00?]
const COMPARISONS: [string, string, string, string, string, string, boolean][] = [
  ["2026-11-05", "Hoje", "2026-11-05", "2026-11-05", "2026-11-04", "2026-11-04", true],
  ["2026-11-05", "Este mês", "2026-11-01", "2026-11-30", "2026-10-01", "2026-10-05", false],
  ["2026-11-05", "Mês passado", "2026-10-01", "2026-10-31", "2026-09-01", "2026-09-30", false],
  ["2026-11-05", "Últimos 7 dias", "2026-10-30", "2026-11-05", "2026-10-23", "2026-10-29", false],
  ["2026-11-05", "Últimos 30 dias", "2026-10-07", "2026-11-05", "2026-09-07", "2026-10-06", false],
  ["2026-11-26", "Hoje", "2026-11-26", "2026-11-26", "2026-11-25", "2026-11-25", true],
  ["2026-11-26", "Este mês", "2026-11-01", "2026-11-30", "2026-10-01", "2026-10-26", false],
  ["2026-11-26", "Mês passado", "2026-10-01", "2026-10-31", "2026-09-01", "2026-09-30", false],
  ["2026-11-26", "Últimos 7 dias", "2026-11-20", "2026-11-26", "2026-11-13", "2026-11-19", false],
  ["2026-11-26", "Últimos 30 dias", "2026-10-28", "2026-11-26", "2026-09-28", "2026-10-27", false],
  // A custom period under way: its 12 days so far against the 12 days before.
  ["2026-11-26", "15/11–15/12", "2026-11-15", "2026-12-15", "2026-11-03", "2026-11-14", false],
  // Over: the period of the same length before it.
  ["2026-11-26", "01/09–20/09", "2026-09-01", "2026-09-20", "2026-08-12", "2026-08-31", false],
  // Not begun, a whole month: the month before.
  ["2026-11-26", "01/12–31/12", "2026-12-01", "2026-12-31", "2026-11-01", "2026-11-30", false],
  // Whole months that are over: as many whole months before (a quarter against the one before it).
  ["2026-11-26", "07–09/2026", "2026-07-01", "2026-09-30", "2026-04-01", "2026-06-30", false],
  ["2026-11-26", "03/2026", "2026-03-01", "2026-03-31", "2026-02-01", "2026-02-28", false],
  // Not whole months (from the 2nd): the same number of days before.
  ["2026-11-26", "02/10–31/10", "2026-10-02", "2026-10-31", "2026-09-02", "2026-10-01", false],
  // Month to date on the 31st against a shorter month: the whole of February.
  ["2027-03-31", "Este mês", "2027-03-01", "2027-03-31", "2027-02-01", "2027-02-28", false],
  ["2027-03-28", "Este mês", "2027-03-01", "2027-03-31", "2027-02-01", "2027-02-28", false],
  // The first of the month: only today has begun, so the first of the previous month until the same time.
  ["2027-01-01", "Este mês", "2027-01-01", "2027-01-31", "2026-12-01", "2026-12-01", true],
  // A custom period starting today: yesterday until the same time.
  ["2026-11-26", "26/11–10/12", "2026-11-26", "2026-12-10", "2026-11-25", "2026-11-25", true],
  // A month to date that ends before the month does (01/11–20/11 on 05/11) is still that month.
  ["2026-11-05", "01/11–20/11", "2026-11-01", "2026-11-20", "2026-10-01", "2026-10-05", false],
];

Deno.test("comparison range: a period under way against the same stretch, any other the period before", () => {
  for (const [today, preset, start, end, cStart, cEnd, cut] of COMPARISONS) {
    assert.deepEqual(
      comparisonRange({ start, end }, today, "09:00:00"),
      { start: cStart, end: cEnd, until: cut ? "09:00:00" : null },
      `${preset} on ${today}`,
    );
  }
});

Deno.test("comparison range: the local time of day in the analytics time zone", () => {
  assert.equal(timeIn("America/Sao_Paulo", new Date("2026-11-26T12:00:00Z")), "09:00:00");
  assert.equal(timeIn("America/Sao_Paulo", new Date("2026-12-01T02:30:05Z")), "23:30:05");
});

Deno.test("analytics math: 'Média por dia' divides by the days begun, not the whole month", () => {
  const points = mergeDaily(
    [{ date: "2026-11-03", count: 13 }, { date: "2026-11-20", count: 13 }],
    [],
    [{ date: "2026-11-01", count: 40 }],
  );
  // This month on 26/11: 26 days, 1,0 lead a day (not 26 / 30 = 0,9).
  const days = chartDays(points, "2026-11-01", "2026-11-30", "2026-11-26");
  assert.equal(days.length, 26);
  assert.equal(averageLeadsPerDay(days), 1);
  // A period over: all of its days.
  assert.equal(chartDays(points, "2026-11-01", "2026-11-30", "2026-12-05").length, 30);
  // No data at all: no days (the average is then 0, divided by 1).
  assert.deepEqual(chartDays([], "2026-11-01", "2026-11-30", "2026-11-26"), []);
});
