// The creatives and keywords rankings from the roll-up (db/utm_detail.ts) are exactly the raw path's
// (db/filtered.ts utmDetailConversions), on a seeded database whose last day is open; a plan click counts
// under the values its session had on the click's day or the day before; the first roll-up after the
// migration fills the days rolled up before it.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seededTest } from "../../testing/seeded.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import { runRollups } from "../services/rollups.ts";
import { utmDetailConversions } from "./filtered.ts";
import { rolledUtmDetail, type UtmDetailColumn } from "./utm_detail.ts";
import { NOW, SEEDED, TZ } from "../../testing/rolled_filters.ts";

const PERIODS = [
  { start: "2026-11-01", end: "2026-11-30" },
  { start: "2026-12-01", end: "2026-12-31" },
  { start: "2026-11-02", end: "2026-12-02" },
  { start: "2026-12-02", end: "2026-12-02" },
  { start: "2026-10-20", end: "2026-10-20" },
];
const COLUMNS: UtmDetailColumn[] = ["utm_content", "utm_term"];

seededTest(
  "utm detail: the creatives and keywords from the roll-up are the raw rows' figures",
  SEEDED,
  async (db) => {
    // Events after the watermark: the raw part of the rolled reading (the roll-up stops a few minutes ago).
    let compared = 0, clicks = 0;
    for (const column of COLUMNS) {
      for (const p of PERIODS) {
        const fast = await rolledUtmDetail(db, column, p, TZ, null);
        assert.ok(fast, "no roll-up answer");
        assert.deepEqual(
          fast,
          await utmDetailConversions(db, column, p, TZ, null, undefined),
          `${column} ${p.start}`,
        );
        compared += fast.length;
        clicks += fast.reduce((n, r) => n + r.clicks, 0);
      }
    }
    assert.ok(compared > 20, `only ${compared} rows compared`);
    assert.ok(clicks > 50, `only ${clicks} clicks compared`);
    // The rows are the roll-up's: emptied, the reading loses them.
    const before = await rolledUtmDetail(db, "utm_content", PERIODS[0], TZ, 5);
    await db.query("delete from daily_utm_detail");
    const after = await rolledUtmDetail(db, "utm_content", PERIODS[0], TZ, 5);
    assert.notDeepEqual(after, before);
  },
);

dbTest("utm detail: a click counts under its session's values of its day and the day before", async (db) => {
  const visit = (at: string, session: string, content: string) =>
    db.query(
      `insert into visits (occurred_at, visitor_key, session_id, source, utm_content) values ($1, 'k', $2, '/pt-br', $3)`,
      [at, session, content],
    );
  const click = (at: string, session: string) =>
    db.query(
      `insert into clicks (occurred_at, visitor_key, session_id, source, kind) values ($1, 'k', $2, 'plan_pro', 'plan')`,
      [at, session],
    );
  // Local days (UTC-3): s1 saw "a" on 10/11 and clicked on 11/11 and on 13/11; s2 clicked on 12/11 before
  // its only page view that day, with "b"; s3 saw "a" and "c" and clicked once.
  await visit("2026-11-10T23:00:00Z", "s1", "a");
  await click("2026-11-11T12:00:00Z", "s1");
  await click("2026-11-13T12:00:00Z", "s1");
  await click("2026-11-12T12:00:00Z", "s2");
  await visit("2026-11-12T13:00:00Z", "s2", "b");
  await visit("2026-11-14T12:00:00Z", "s3", "a");
  await visit("2026-11-14T12:01:00Z", "s3", "c");
  await visit("2026-11-14T12:02:00Z", "s3", "c");
  await click("2026-11-14T12:03:00Z", "s3");
  const expected = [
    { key: "a", visits: 2, clicks: 2, leads: 0 },
    { key: "c", visits: 2, clicks: 1, leads: 0 },
    { key: "b", visits: 1, clicks: 1, leads: 0 },
  ];
  const november = { start: "2026-11-01", end: "2026-11-30" };
  assert.deepEqual(await utmDetailConversions(db, "utm_content", november, TZ, null, undefined), expected);
  // Before any roll-up the rolled reading is all raw; after one it is all roll-up; both the same.
  assert.deepEqual(await rolledUtmDetail(db, "utm_content", november, TZ, null), expected);
  await runRollups(db, TZ, new Date("2026-11-20T12:00:00Z"));
  assert.equal((await db.query("select 1 from daily_utm_detail")).length, 5);
  assert.deepEqual(await rolledUtmDetail(db, "utm_content", november, TZ, null), expected);
  // A value with clicks and no page view in the period is left out; its clicks count where it was seen.
  for (
    const [start, end, rows] of [
      ["2026-11-11", "2026-11-11", []],
      ["2026-11-10", "2026-11-11", [{ key: "a", visits: 1, clicks: 1, leads: 0 }]],
    ] as const
  ) {
    const period = { start, end };
    assert.deepEqual(await rolledUtmDetail(db, "utm_content", period, TZ, null), rows);
    assert.deepEqual(await utmDetailConversions(db, "utm_content", period, TZ, null, undefined), rows);
  }
});

dbTest("utm detail: the first roll-up after the migration fills the days rolled up before it", async (db) => {
  await seedAnalytics(db, { visits: 1500, days: 20, timeZone: TZ, now: NOW, seed: 5 });
  await runRollups(db, TZ, NOW);
  const period = { start: "2026-11-15", end: "2026-12-02" };
  const rolled = await rolledUtmDetail(db, "utm_term", period, TZ, 10);
  // As if the days had been rolled up before migration 00024: no rows, the flag set.
  await db.query("delete from daily_utm_detail");
  await db.query("insert into utm_detail_backfill default values");
  assert.equal(await rolledUtmDetail(db, "utm_term", period, TZ, 10), null);
  await runRollups(db, TZ, new Date(NOW.getTime() + 10 * 60_000));
  assert.deepEqual(await rolledUtmDetail(db, "utm_term", period, TZ, 10), rolled);
  assert.equal((await db.query("select 1 from utm_detail_backfill")).length, 0);
});
