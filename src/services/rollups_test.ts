import assert from "node:assert/strict";
import { appTest, type TestApp } from "../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../testing/admin.ts";
import { insertClick, insertConversion, insertVisit, sp } from "../testing/analytics_fixture.ts";
import { rollupState } from "../db/rollups.ts";
import { seedAnalytics } from "../../bench/seed.ts";
import { lastClosedDay, runRollups } from "./rollups.ts";

const TZ = "America/Sao_Paulo";
// 12:00 local on 22 November 2026: 21 November is the last closed day.
const NOW = new Date("2026-11-22T15:00:00Z");

/** Every endpoint the dashboard reads, for one range. */
function endpoints(start: string, end: string): string[] {
  const r = `startDate=${start}&endDate=${end}`;
  return [
    `/api/tracking/summary?${r}`,
    `/api/tracking/stats?${r}`,
    `/api/tracking/analytics?${r}`,
    `/api/tracking/unique-visits?${r}`,
    `/api/tracking/rankings/utm-source?${r}`,
    `/api/tracking/rankings/utm-campaign?${r}`,
    `/api/tracking/rankings/pages?${r}`,
    `/api/tracking/conversion-by-utm-source?${r}`,
    `/api/leads/analytics?${r}`,
  ];
}

async function answers(t: TestApp, cookie: string, paths: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    out[path] = await res.json();
  }
  return out;
}

const RANGES: [string, string][] = [
  ["2026-11-01", "2026-11-30"], // this month, today included
  ["2026-10-23", "2026-11-22"], // last 31 days, across two months, today included
  ["2026-10-01", "2026-10-31"], // last month, all rolled up
  ["2026-10-31", "2026-11-01"], // two days either side of a month's end
  ["2026-11-21", "2026-11-21"], // the day just closed
  ["2026-11-22", "2026-11-22"], // today only
  ["2026-09-05", "2026-11-22"], // everything
];
const PATHS = [...RANGES.flatMap(([s, e]) => endpoints(s, e)), "/api/tracking/stats"];

appTest(
  "rollups: every dashboard endpoint answers the same before and after rolling up, and without the raw rows",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await seedAnalytics(t.db, { visits: 6000, days: 79, timeZone: TZ, now: NOW, seed: 3 });
    // seedAnalytics ran the job; start from raw only to get the reference answers.
    await t.db.exec("delete from rollup_state; delete from daily_totals; delete from daily_visit_ranks;");
    await t.db.exec(
      "delete from daily_source_actions; delete from visitor_days; delete from visitor_ranges;",
    );
    const raw = await answers(t, cookie, PATHS);

    const report = await runRollups(t.db, TZ, NOW);
    assert.equal(report?.through, "2026-11-21");
    assert.ok((report?.days ?? 0) >= 78, `days rolled up: ${report?.days}`);
    assert.deepEqual(await answers(t, cookie, PATHS), raw);

    // Days up to the watermark are read from the roll-ups only: without their raw rows nothing changes
    // (and had the roll-ups been added to raw rows, the answers above would have doubled).
    await t.db.query("delete from visits where occurred_at < $1", [sp("2026-11-22T00:00:00")]);
    await t.db.query("delete from clicks where occurred_at < $1", [sp("2026-11-22T00:00:00")]);
    await t.db.query("delete from conversions where occurred_at < $1", [sp("2026-11-22T00:00:00")]);
    assert.deepEqual(await answers(t, cookie, PATHS), raw);
  },
  { now: () => NOW },
);

appTest(
  "rollups: a day is rolled up only once closed (plus the grace period); the event just before midnight counts on its day",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await insertVisit(t.db, sp("2026-11-21T23:59:00"), "a", "/pt-br", { utmSource: "google" });
    await insertClick(t.db, sp("2026-11-21T23:59:30"), { utmSource: "google" });
    await insertVisit(t.db, sp("2026-11-22T00:00:00"), "a", "/pt-br", { utmSource: "google" });
    await insertVisit(t.db, sp("2026-11-22T00:05:00"), "b", "/en");
    await insertConversion(t.db, sp("2026-11-22T00:06:00"), { utmSource: "google" });
    const paths = [...endpoints("2026-11-21", "2026-11-22"), ...endpoints("2026-11-22", "2026-11-22")];
    const raw = await answers(t, cookie, paths);
    assert.deepEqual(raw["/api/tracking/unique-visits?startDate=2026-11-21&endDate=2026-11-22"], [
      { date: "2026-11-21", count: 1 },
      { date: "2026-11-22", count: 2 },
    ]);
    const summary = raw["/api/tracking/summary?startDate=2026-11-21&endDate=2026-11-22"] as {
      current: { uniqueVisitors: number; visits: number; clicks: number; conversions: number };
    };
    assert.deepEqual(
      { ...summary.current },
      { ...summary.current, uniqueVisitors: 2, visits: 3, clicks: 1, conversions: 1 },
    );

    // Ten minutes after midnight the day that just closed is still inside the grace period.
    const early = new Date("2026-11-22T03:10:00Z");
    assert.equal(lastClosedDay(TZ, early), "2026-11-20");
    assert.equal((await runRollups(t.db, TZ, early))?.days, 0);
    assert.equal((await rollupState(t.db)).through, "2026-11-20");
    assert.deepEqual(await answers(t, cookie, paths), raw);

    // Twenty minutes after midnight it is rolled up: the visit at 23:59 stays on the 21st, key "a" is
    // still one visitor over both days (one raw, one rolled up), and today stays raw.
    const later = new Date("2026-11-22T03:20:00Z");
    assert.equal((await runRollups(t.db, TZ, later))?.days, 1);
    assert.equal((await rollupState(t.db)).through, "2026-11-21");
    const totals = await t.db.query(
      "select to_char(day, 'YYYY-MM-DD') as day, visits, unique_visitors, clicks, conversions from daily_totals",
    );
    assert.deepEqual(totals, [{
      day: "2026-11-21",
      visits: 1,
      unique_visitors: 1,
      clicks: 1,
      conversions: 0,
    }]);
    assert.deepEqual(await answers(t, cookie, paths), raw);
  },
);

appTest(
  "rollups: São Paulo days and months — 23:30 on 31 October (already November in UTC) stays in October",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await insertVisit(t.db, sp("2026-10-31T23:30:00"), "oct-key", "/pt-br");
    await insertVisit(t.db, sp("2026-11-01T00:30:00"), "nov-key", "/pt-br");
    await runRollups(t.db, TZ, NOW);
    assert.deepEqual(
      await t.db.query(
        "select to_char(month, 'YYYY-MM') as month, visitor_key, days, last_day from visitor_days order by 1",
      ),
      [
        { month: "2026-10", visitor_key: "oct-key", days: 1 << 30, last_day: 31 },
        { month: "2026-11", visitor_key: "nov-key", days: 1, last_day: 1 },
      ],
    );
    const oct = await answers(t, cookie, endpoints("2026-10-01", "2026-10-31"));
    assert.deepEqual(oct["/api/tracking/unique-visits?startDate=2026-10-01&endDate=2026-10-31"], [
      { date: "2026-10-31", count: 1 },
    ]);
    const summary = oct["/api/tracking/summary?startDate=2026-10-01&endDate=2026-10-31"] as {
      current: { uniqueVisitors: number; visits: number };
    };
    assert.equal(summary.current.uniqueVisitors, 1);
    assert.equal(summary.current.visits, 1);
  },
  { now: () => NOW },
);

appTest(
  "rollups: unique visitors stay exact over ranges across two months, today included (not the sum of daily uniques)",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    // a: two October days; c: the last October day, then (new month, new key) November; b: two November
    // days; d: yesterday (rolled up) and today (raw).
    await insertVisit(t.db, sp("2026-10-21T10:00:00"), "a-oct", "/pt-br");
    await insertVisit(t.db, sp("2026-10-25T10:00:00"), "a-oct", "/pt-br");
    await insertVisit(t.db, sp("2026-10-31T22:00:00"), "c-oct", "/pt-br");
    await insertVisit(t.db, sp("2026-11-01T09:00:00"), "c-nov", "/pt-br");
    await insertVisit(t.db, sp("2026-11-02T09:00:00"), "b-nov", "/pt-br");
    await insertVisit(t.db, sp("2026-11-05T09:00:00"), "b-nov", "/pt-br");
    await insertVisit(t.db, sp("2026-11-21T09:00:00"), "d-nov", "/pt-br");
    await insertVisit(t.db, sp("2026-11-22T09:00:00"), "d-nov", "/pt-br");
    const ranges: [string, string, number][] = [
      ["2026-10-20", "2026-11-22", 5],
      ["2026-10-20", "2026-11-10", 4],
      ["2026-10-22", "2026-10-24", 0],
      ["2026-10-25", "2026-11-02", 4],
      ["2026-11-03", "2026-11-05", 1],
      ["2026-11-21", "2026-11-22", 1],
      ["2026-11-22", "2026-11-22", 1],
    ];
    const uniques = async () => {
      const out: number[] = [];
      for (const [s, e] of ranges) {
        const res = await getAs(t, cookie, `/api/tracking/summary?startDate=${s}&endDate=${e}`);
        assert.equal(res.status, 200);
        out.push((await res.json()).current.uniqueVisitors);
      }
      return out;
    };
    const expected = ranges.map(([, , n]) => n);
    assert.deepEqual(await uniques(), expected);
    await runRollups(t.db, TZ, NOW);
    assert.deepEqual(await uniques(), expected);
    // The daily series still adds up to more: a and b visited twice, d once on each side of the watermark.
    const series = await getAs(
      t,
      cookie,
      "/api/tracking/unique-visits?startDate=2026-10-20&endDate=2026-11-22",
    );
    const daily = (await series.json()) as { count: number }[];
    assert.equal(daily.reduce((n, d) => n + d.count, 0), 8);
  },
  { now: () => NOW },
);
