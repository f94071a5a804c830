// A day's unique visitors up to a time of day from its first visits (db/day_first_visits.ts, migrations/00033):
// the same figures as the raw rows, to the second, and only when the roll-ups can answer.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { insertVisit, sp } from "../../testing/analytics_fixture.ts";
import { runRollups } from "../services/rollups.ts";
import { purgeRawEvents } from "../services/retention.ts";
import type { Db } from "./client.ts";
import { dayVisitorsBeforeCut } from "./day_first_visits.ts";
import { visitorTotals } from "./unique_visitors.ts";

const TZ = "America/Sao_Paulo";
const DAY = "2026-11-20";

/** 20 November 2026: 40 keys coming back through the day, and page views just each side of whole seconds. */
async function seedDay(db: Db): Promise<void> {
  const midnight = sp(`${DAY}T00:00:00`).getTime();
  for (let i = 0; i < 400; i++) {
    const at = midnight + ((i * 7_919_113) % 86_400_000);
    await insertVisit(db, new Date(at), `k${(i * 13) % 40}`, "/pt-br");
  }
  await insertVisit(db, sp(`${DAY}T10:00:00`), "edge-on", "/pt-br");
  await insertVisit(db, new Date(sp(`${DAY}T10:00:00`).getTime() - 1), "edge-before", "/pt-br");
  await insertVisit(db, new Date(sp(`${DAY}T10:00:00`).getTime() + 999), "edge-in", "/pt-br");
  await insertVisit(db, sp("2026-11-19T23:59:59"), "k1", "/pt-br");
  await insertVisit(db, sp("2026-11-21T00:00:00"), "k2", "/pt-br");
}

/** Distinct keys and page views of the day before `cut`, from the raw rows alone. */
async function fromRawRows(db: Db, cut: string) {
  const [row] = await db.query<{ uniqueVisitors: number; visits: number }>(
    `select count(distinct visitor_key)::int as "uniqueVisitors", count(*)::int as visits from visits
      where occurred_at >= ($1::date::timestamp at time zone $2)
        and occurred_at < ($1::date + $3::time)::timestamp at time zone $2`,
    [DAY, TZ, cut],
  );
  return { ...row, approximate: false };
}

const CUTS = ["00:00:01", "03:17:45", "09:59:59", "10:00:00", "10:00:01", "10:00:02", "17:00:00", "23:59:59"];

dbTest("first visits: a day up to any second counts what its raw rows count", async (db) => {
  await seedDay(db);
  const truth = await Promise.all(CUTS.map((cut) => fromRawRows(db, cut)));
  // 09:59:59.999 counts from the cut at 10:00:00; 10:00:00.000 and 10:00:00.999 from 10:00:01.
  assert.equal(truth[3].uniqueVisitors - truth[2].uniqueVisitors, 1);
  assert.equal(truth[4].uniqueVisitors - truth[3].uniqueVisitors, 2);
  // Before any roll-up: no row, so the raw rows answer.
  assert.equal(await dayVisitorsBeforeCut(db, DAY, TZ, "10:00:00"), null);
  for (const [i, cut] of CUTS.entries()) {
    assert.deepEqual(await visitorTotals(db, { start: DAY, end: DAY }, TZ, cut), truth[i], cut);
  }
  // The watermark at 12:00 on the day: cuts before it come from the row, later ones from the raw rows.
  assert.ok(await runRollups(db, TZ, sp(`${DAY}T12:02:00`)));
  assert.ok(await dayVisitorsBeforeCut(db, DAY, TZ, "11:59:59"));
  assert.equal(await dayVisitorsBeforeCut(db, DAY, TZ, "12:00:01"), null);
  for (const [i, cut] of CUTS.entries()) {
    assert.deepEqual(
      await visitorTotals(db, { start: DAY, end: DAY }, TZ, cut),
      truth[i],
      `${cut}, watermark 12:00`,
    );
  }
  // The day over: every cut from the row.
  assert.ok(await runRollups(db, TZ, sp("2026-11-21T08:00:00")));
  for (const [i, cut] of CUTS.entries()) {
    const { uniqueVisitors, visits } = truth[i];
    assert.deepEqual(await dayVisitorsBeforeCut(db, DAY, TZ, cut), { uniqueVisitors, visits }, cut);
    assert.deepEqual(await visitorTotals(db, { start: DAY, end: DAY }, TZ, cut), truth[i], cut);
  }
  // What answers is the row: a spoiled one shows.
  await db.query("update daily_first_visits set seconds = seconds || array[0] where day = $1", [DAY]);
  assert.equal(
    (await visitorTotals(db, { start: DAY, end: DAY }, TZ, "23:59:59")).uniqueVisitors,
    truth.at(-1)!.uniqueVisitors + 1,
  );
});

dbTest(
  "first visits: retention forgets the days it purges, which then count from their roll-ups",
  async (db) => {
    await seedDay(db);
    assert.ok(await runRollups(db, TZ, sp("2026-11-22T08:00:00")));
    assert.equal((await db.query("select 1 from daily_first_visits")).length, 3);
    // Keeping 1 day on the 22nd purges the raw rows before the 21st.
    await purgeRawEvents(db, { retentionDays: 1, timeZone: TZ }, sp("2026-11-22T08:00:00"));
    const days = await db.query<{ day: string }>(
      "select to_char(day, 'YYYY-MM-DD') as day from daily_first_visits",
    );
    assert.deepEqual(days, [{ day: "2026-11-21" }]);
    assert.equal(await dayVisitorsBeforeCut(db, DAY, TZ, "10:00:00"), null);
  },
);
