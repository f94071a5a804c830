// Unique visitors under one filter from the roll-up (db/filter_visitors.ts) are exactly the raw path's
// (db/filtered.ts filteredVisitorTotals), for every rolled-up filter, over periods of final days, the open
// day, a cut comparison, several months and days before the data, on a seeded database; the first run after
// the migration fills the days rolled up before it.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seededTest } from "../../testing/seeded.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import { runRollups } from "../services/rollups.ts";
import { setPurgedThrough } from "./rollups.ts";
import { filteredVisitorTotals } from "./filtered.ts";
import { rolledFilterVisitorTotals } from "./filter_visitors.ts";
import {
  assertBackfillRefills,
  busiestFilters,
  busiestPairs,
  NOW,
  SEEDED,
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

seededTest(
  "filter visitors: the roll-up per filter value gives the raw rows' unique visitors",
  SEEDED,
  async (db) => {
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
  },
);

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

dbTest(
  "filter visitors: a period from the first of a month to a final day reads the day's month-to-date figure, " +
    "filled once the day is final, and counts the arrays whenever it cannot",
  async (db) => {
    await seedAnalytics(db, { visits: 1500, days: 40, timeZone: TZ, now: NOW, seed: 7 });
    await runRollups(db, TZ, NOW);
    const unfilled = await db.query<{ day: string }>(
      "select distinct to_char(day, 'YYYY-MM-DD') as day from daily_filter_visitors where month_to_date is null",
    );
    assert.deepEqual(unfilled.map((r) => r.day), ["2026-12-02"], "only the open day waits for its figure");
    const f = (await busiestFilters(db, 1))[0];
    const visitors = async (start: string, end: string, until: string | null = null) =>
      (await rolledFilterVisitorTotals(db, { start, end }, TZ, until, f))!.uniqueVisitors;
    const raw = async (start: string, end: string, until: string | null = null) =>
      (await filteredVisitorTotals(db, { start, end }, TZ, until, f)).uniqueVisitors;
    const cases: [string, string][] = [["2026-11-01", "2026-11-30"], ["2026-11-01", "2026-11-17"], [
      "2026-11-02",
      "2026-11-30",
    ]];
    for (const [start, end] of cases) {
      assert.equal(await visitors(start, end), await raw(start, end), start + end);
    }

    // The figure is what answers: spoiled, it shows in the month-start periods only.
    await db.query(
      "update daily_filter_visitors set month_to_date = month_to_date + 1000 where day < '2026-12-01'",
    );
    assert.equal(await visitors("2026-11-01", "2026-11-30"), await raw("2026-11-01", "2026-11-30") + 1000);
    assert.equal(await visitors("2026-11-02", "2026-11-30"), await raw("2026-11-02", "2026-11-30"));
    // Not filled yet (a run rewrote the rows), or a cut on the last day: the arrays are counted.
    await db.query("update daily_filter_visitors set month_to_date = null where day < '2026-12-01'");
    assert.equal(await visitors("2026-11-01", "2026-11-30"), await raw("2026-11-01", "2026-11-30"));
    assert.equal(
      await visitors("2026-11-01", "2026-11-30", "10:00:00"),
      await raw("2026-11-01", "2026-11-30", "10:00:00"),
    );

    // The next day's run fills every final day again, the one that just ended included.
    const nextDay = new Date(NOW.getTime() + 24 * 3600_000);
    await runRollups(db, TZ, nextDay);
    const filled = await db.query<{ n: number }>(
      "select count(*)::int as n from daily_filter_visitors where month_to_date is null and day < '2026-12-03'",
    );
    assert.equal(filled[0].n, 0);
    for (const [start, end] of [["2026-11-01", "2026-11-30"], ["2026-12-01", "2026-12-02"]]) {
      assert.equal(await visitors(start, end), await raw(start, end), start + end);
    }

    // A purge inside the month: its days count nothing (the roll-up path stops at the purge watermark), so the
    // figure, which has them, is not used.
    const whole = await visitors("2026-11-01", "2026-11-30");
    await setPurgedThrough(db, "2026-11-10");
    const afterPurge = await visitors("2026-11-01", "2026-11-30");
    assert.equal(afterPurge, await visitors("2026-11-11", "2026-11-30"));
    assert.ok(afterPurge < whole, `${afterPurge} visitors after the purge, ${whole} before`);
  },
);

dbTest(
  "filter visitors: this month to the open day adds to the last final day's figure the numbers no earlier day has",
  async (db) => {
    // 15:00 local on 20 November: nineteen final days of November, the 20th open.
    const now = new Date("2026-11-20T18:00:00Z");
    await seedAnalytics(db, { visits: 2500, days: 30, timeZone: TZ, now, seed: 11 });
    await runRollups(db, TZ, now);
    // After the watermark: a visitor of the 3rd, one of the 20th only, and a key new to the month.
    const visit = (key: string, at: string, source: string) =>
      db.query(
        `insert into visits (occurred_at, visitor_key, session_id, source, channel) values ($1, $2, $3, $4, 'direct')`,
        [at, key, key + "-s", source],
      );
    const keys = await db.query<{ early: string; late: string }>(
      `select (select visitor_key from visits where (occurred_at at time zone $1)::date = '2026-11-03' limit 1) as early,
              (select visitor_key from visits v where (occurred_at at time zone $1)::date = '2026-11-20'
                  and not exists (select 1 from visits w where w.visitor_key = v.visitor_key
                                     and (w.occurred_at at time zone $1)::date < '2026-11-20') limit 1) as late`,
      [TZ],
    );
    for (const key of [keys[0].early, keys[0].late, "brand-new-key"]) {
      await visit(key, "2026-11-20T17:59:30Z", "/pt-br");
      await visit(key, "2026-11-20T17:59:40Z", "/pt-br/pipefy");
    }
    const filters = [...await busiestFilters(db, 2), { page: "/pt-br" }, { page: "/pt-br/pipefy" }];
    const periods = [["2026-11-01", "2026-11-30"], ["2026-11-01", "2026-11-20"]];
    let compared = 0;
    for (const f of filters) {
      for (const [start, end] of periods) {
        const rolled = await rolledFilterVisitorTotals(db, { start, end }, TZ, null, f);
        const raw = await filteredVisitorTotals(db, { start, end }, TZ, null, f);
        assert.equal(rolled?.uniqueVisitors, raw.uniqueVisitors, `${JSON.stringify(f)} ${start} ${end}`);
        compared += raw.uniqueVisitors;
      }
    }
    assert.ok(compared > 1000, `only ${compared} visitors compared`);
    // What answers is the last final day's figure: spoiled, it shows; the day before it does not.
    const f = { page: "/pt-br" }, november = { start: "2026-11-01", end: "2026-11-30" };
    const right = (await filteredVisitorTotals(db, november, TZ, null, f)).uniqueVisitors;
    await db.query(
      `update daily_filter_visitors set month_to_date = month_to_date + 1000
        where filter = 'page' and value = '/pt-br' and day = '2026-11-19'`,
    );
    assert.equal((await rolledFilterVisitorTotals(db, november, TZ, null, f))?.uniqueVisitors, right + 1000);
    await db.query(
      `update daily_filter_visitors set month_to_date = month_to_date - 1000
        where filter = 'page' and value = '/pt-br' and day = '2026-11-19'`,
    );
    await db.query(
      `update daily_filter_visitors set month_to_date = month_to_date + 1000
        where filter = 'page' and value = '/pt-br' and day = '2026-11-18'`,
    );
    assert.equal((await rolledFilterVisitorTotals(db, november, TZ, null, f))?.uniqueVisitors, right);
    // With a cut (the comparison of "Hoje"), the arrays are counted.
    assert.equal(
      (await rolledFilterVisitorTotals(db, november, TZ, "10:00:00", f))?.uniqueVisitors,
      (await filteredVisitorTotals(db, november, TZ, "10:00:00", f)).uniqueVisitors,
    );
  },
);
