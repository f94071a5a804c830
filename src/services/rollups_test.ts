import assert from "node:assert/strict";
import { appTest } from "../../testing/app.ts";
import { answersAs, dashboardEndpoints, getAs, seedAdmin, signIn } from "../../testing/admin.ts";
import {
  insertClick,
  insertConversion,
  insertLead,
  insertVisit,
  sp,
} from "../../testing/analytics_fixture.ts";
import { rollupState } from "../db/rollups.ts";
import { startJob } from "./jobs.ts";
import { rollupJob, runRollups } from "./rollups.ts";

const TZ = "America/Sao_Paulo";
// 12:00 local on 22 November 2026: 21 November is the last closed day.
const NOW = new Date("2026-11-22T15:00:00Z");

appTest(
  "rollups: events are rolled up to two minutes ago, across midnight; later ones stay raw and answers never change",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await insertVisit(t.db, sp("2026-11-21T23:57:00"), "a", "/pt-br", { utmSource: "google" });
    await insertClick(t.db, sp("2026-11-21T23:59:30"), { utmSource: "google" });
    await insertVisit(t.db, sp("2026-11-22T00:00:00"), "a", "/pt-br", { utmSource: "google" });
    await insertVisit(t.db, sp("2026-11-22T00:05:00"), "b", "/en");
    await insertLead(t.db, sp("2026-11-22T00:06:00"), {
      name: "Lia",
      email: "lia@example.com",
      whatsapp: "1",
      utmSource: "google",
    });
    await insertConversion(t.db, sp("2026-11-22T00:06:00"), { utmSource: "google" });
    const paths = [
      ...dashboardEndpoints("2026-11-21", "2026-11-22"),
      ...dashboardEndpoints("2026-11-22", "2026-11-22"),
    ];
    const raw = await answersAs(t, cookie, paths);
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

    // At 00:01 the watermark is 23:59 on the 21st: the first visit is rolled up, the click at 23:59:30
    // (its day's last event) and today's events are still raw.
    assert.equal((await runRollups(t.db, TZ, sp("2026-11-22T00:01:00")))?.days, 1);
    assert.deepEqual(await rollupState(t.db), {
      through: "2026-11-21",
      until: sp("2026-11-21T23:59:00"),
      purgedThrough: null,
    });
    assert.deepEqual(
      await t.db.query("select to_char(day, 'YYYY-MM-DD') as day, visits, clicks from daily_totals"),
      [{ day: "2026-11-21", visits: 1, clicks: 0 }],
    );
    assert.deepEqual(await answersAs(t, cookie, paths), raw);

    // At 00:06 the 21st is final (its click added) and today is rolled up to 00:04: key "a" stays one
    // visitor over both days, "b" (00:05) is still raw.
    assert.equal((await runRollups(t.db, TZ, sp("2026-11-22T00:06:00")))?.days, 2);
    assert.deepEqual(
      await t.db.query(
        "select to_char(day, 'YYYY-MM-DD') as day, visits, unique_visitors, clicks, conversions from daily_totals order by 1",
      ),
      [
        { day: "2026-11-21", visits: 1, unique_visitors: 1, clicks: 1, conversions: 0 },
        { day: "2026-11-22", visits: 1, unique_visitors: 1, clicks: 0, conversions: 0 },
      ],
    );
    assert.deepEqual(await answersAs(t, cookie, paths), raw);

    // A run with nothing new changes nothing; a later one rolls the rest up.
    assert.equal((await runRollups(t.db, TZ, sp("2026-11-22T00:06:00")))?.days, 0);
    assert.equal((await runRollups(t.db, TZ, sp("2026-11-22T12:00:00")))?.days, 1);
    assert.deepEqual(await answersAs(t, cookie, paths), raw);
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
        "select to_char(month, 'YYYY-MM') as month, visitor_key, days, last_day, before::int from visitor_days order by 1",
      ),
      [
        { month: "2026-10", visitor_key: "oct-key", days: 1 << 30, last_day: 31, before: 0 },
        { month: "2026-11", visitor_key: "nov-key", days: 1, last_day: 1, before: 0 },
      ],
    );
    const oct = await answersAs(t, cookie, dashboardEndpoints("2026-10-01", "2026-10-31"));
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
    // Within the last two minutes (still raw after the run): d again, and e for the first time.
    await insertVisit(t.db, sp("2026-11-22T11:59:00"), "e-nov", "/pt-br");
    await insertVisit(t.db, sp("2026-11-22T11:59:30"), "d-nov", "/pt-br");
    const ranges: [string, string, number][] = [
      ["2026-10-20", "2026-11-22", 6],
      ["2026-10-20", "2026-11-10", 4],
      ["2026-10-22", "2026-10-24", 0],
      ["2026-10-25", "2026-11-02", 4],
      ["2026-11-03", "2026-11-05", 1],
      ["2026-11-21", "2026-11-22", 2],
      ["2026-11-22", "2026-11-22", 2],
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
    assert.equal(
      (await t.db.query("select count(*)::int as n from visits where occurred_at >= $1", [
        (await rollupState(t.db)).until,
      ]))[0].n,
      2,
    );
    assert.deepEqual(await uniques(), expected);
    // The daily series adds up to more: a and b visited on two days, d on two days, e on one.
    const series = await getAs(
      t,
      cookie,
      "/api/tracking/unique-visits?startDate=2026-10-20&endDate=2026-11-22",
    );
    const daily = (await series.json()) as { count: number }[];
    assert.equal(daily.reduce((n, d) => n + d.count, 0), 9);
  },
  { now: () => NOW },
);

appTest("rollups: the timer runs the job soon after start and stops cleanly", async (t) => {
  await insertVisit(t.db, sp("2026-11-22T09:00:00"), "a", "/pt-br");
  const job = startJob(rollupJob(t.db, { timeZone: TZ, now: () => NOW, firstDelay: 0, every: 3_600_000 }));
  try {
    for (let i = 0; i < 200 && (await rollupState(t.db)).through === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await job.stop();
  }
  assert.equal((await rollupState(t.db)).through, "2026-11-22");
  assert.deepEqual(await t.db.query("select visits, unique_visitors from daily_totals"), [
    { visits: 1, unique_visitors: 1 },
  ]);
});
