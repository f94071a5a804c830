// The dashboard's answers do not depend on whether the roll-up job has run (src/services/rollups.ts): every
// endpoint, over ranges of closed and open days and across months, answers the same from the raw rows alone,
// after the job has rolled them up, and once the rolled-up raw rows are gone.
import assert from "node:assert/strict";
import { appTest } from "../../../testing/app.ts";
import { answersAs, dashboardEndpoints, seedAdmin, signIn } from "../../../testing/admin.ts";
import { rollupState } from "../../db/rollups.ts";
import { seedAnalytics } from "../../../testing/seed.ts";
import { runRollups } from "../../services/rollups.ts";
import { sp } from "../../../testing/analytics_fixture.ts";

const TZ = "America/Sao_Paulo";
// 12:00 local on 22 November 2026: 21 November is the last closed day.
const NOW = new Date("2026-11-22T15:00:00Z");

const RANGES: [string, string][] = [
  ["2026-11-01", "2026-11-30"], // this month, today included
  ["2026-10-23", "2026-11-22"], // last 31 days, across two months, today included
  ["2026-10-01", "2026-10-31"], // last month, all rolled up
  ["2026-10-31", "2026-11-01"], // two days either side of a month's end
  ["2026-11-21", "2026-11-21"], // the day just closed
  ["2026-11-22", "2026-11-22"], // today only
  ["2026-09-23", "2026-11-22"], // 61 days (unique visitors are exact up to 62 days)
];
const PATHS = [...RANGES.flatMap(([s, e]) => dashboardEndpoints(s, e)), "/api/tracking/stats"];

appTest(
  "rollups: every dashboard endpoint answers the same before and after rolling up, and without the raw rows",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await seedAnalytics(t.db, { visits: 6000, days: 79, timeZone: TZ, now: NOW, seed: 3 });
    // seedAnalytics ran the job; start from raw only to get the reference answers.
    await t.db.exec("delete from rollup_state; delete from daily_totals; delete from daily_visit_ranks;");
    await t.db.exec(
      "delete from daily_source_actions; delete from daily_channel_actions; delete from visitor_days; delete from visitor_spans;",
    );
    const raw = await answersAs(t, cookie, PATHS);

    // As a server would: a run after start-up, then one now and then (a month apart, a day apart), then now.
    const days = (n: number) => new Date(NOW.getTime() - n * 86_400_000);
    let rolled = 0;
    for (const at of [days(50), days(19.6), days(1), NOW]) {
      rolled += (await runRollups(t.db, TZ, at))?.days ?? 0;
    }
    const state = await rollupState(t.db);
    assert.equal(state.through, "2026-11-22");
    assert.equal(state.until?.toISOString(), "2026-11-22T14:58:00.000Z");
    assert.ok(rolled >= 79, `days rolled up: ${rolled}`);
    assert.deepEqual(await answersAs(t, cookie, PATHS), raw);

    // Events before the watermark are read from the roll-ups only: without their raw rows nothing changes
    // (and had the roll-ups been added to raw rows, the answers above would have doubled). Yesterday's stay:
    // "today only" is compared with yesterday until the same time of day, which only raw rows can tell.
    const yesterday = sp("2026-11-21T00:00:00");
    for (const table of ["visits", "clicks", "conversions"]) {
      await t.db.query(`delete from ${table} where occurred_at < $1`, [yesterday]);
    }
    assert.deepEqual(await answersAs(t, cookie, PATHS), raw);
  },
  { now: () => NOW },
);
