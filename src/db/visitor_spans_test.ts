// The unique visitors' roll-up (db/unique_visitors.ts rollUpVisitors), run as the job runs it over a seeded
// month and a half: every span of days it stores counts the distinct visitor keys of its raw visits.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import { runRollups } from "../services/rollups.ts";
import { rollupState } from "./rollups.ts";

const TZ = "America/Sao_Paulo";
// 12:00 local on 22 November 2026: 21 November is the last closed day.
const NOW = new Date("2026-11-22T15:00:00Z");

dbTest("visitor spans: every span's count equals the distinct keys of its raw visits", async (db) => {
  await seedAnalytics(db, { visits: 2500, days: 45, timeZone: TZ, now: NOW, seed: 11, linkKeys: false });
  await db.exec("delete from rollup_state; delete from visitor_days; delete from visitor_spans;");
  for (const at of [new Date("2026-10-20T12:00:00Z"), new Date("2026-11-03T12:00:00Z"), NOW]) {
    await runRollups(db, TZ, at);
  }
  const { until } = await rollupState(db);
  // Seeded without link keys: a key of one month is another address than any key of another. (Exactness
  // across months with link keys: unique_visitors_test.ts.)
  const wrong = await db.query(
    `select to_char(r.first_day, 'YYYY-MM-DD') as first, to_char(r.last_day, 'YYYY-MM-DD') as last, r.visitors,
            count(distinct (date_trunc('month', v.occurred_at at time zone $1), v.visitor_key))::int as raw
       from visitor_spans r left join visits v
         on v.occurred_at < $2 and (v.occurred_at at time zone $1)::date between r.first_day and r.last_day
      -- The days each run ended on or started from, and the first of a month (a full check takes minutes).
      where r.last_day in ('2026-10-20', '2026-10-21', '2026-11-01', '2026-11-03', '2026-11-04', '2026-11-22')
      group by 1, 2, 3 having r.visitors <> count(distinct (date_trunc('month', v.occurred_at at time zone $1), v.visitor_key))`,
    [TZ, until],
  );
  assert.deepEqual(wrong, []);
  const n = await db.query<{ n: number }>("select count(*)::int as n from visitor_spans");
  // 62 spans ending on each rolled-up day: from 9 October (the first day with data) to 22 November.
  assert.equal(n[0].n, 62 * (23 + 22));
});
