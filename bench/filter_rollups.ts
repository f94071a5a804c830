// What the roll-ups per filter value (migrations/00022, docs/ANALYTICS.md "Filters"), the hourly totals
// (00031), the watermark's day's sessions (00032), the first visits (00033) and the session seconds (00034)
// add to the roll-up job: on a seeded PostgreSQL schema (testing/seed.ts), times each roll-up step over one
// day (yesterday, a whole day of rows, as the job rewrites the watermark's day on every run) and over today
// so far, each inside a transaction that is rolled back, RUNS times; prints p50 per step and the load
// average.
//   DATABASE_URL=postgres://… deno run -A bench/filter_rollups.ts --schema seeded [--runs 5] [--skip visitor_days]
import { parseArgs } from "node:util";
import { openDb, type Queryable } from "../src/db/client.ts";
import { rollUpTotals, rollUpVisitRanks, roomForRollups } from "../src/db/rollups.ts";
import { rollUpVisitors } from "../src/db/unique_visitors.ts";
import { rollUpEngagement, rollUpOpenDaySessions, rollUpSessionSeconds } from "../src/db/engagement.ts";
import { rollUpFirstVisits } from "../src/db/day_first_visits.ts";
import { rollUpHourly } from "../src/db/hourly.ts";
import { rollUpFilterEngagement } from "../src/db/filter_engagement.ts";
import { rollUpFilterRanks } from "../src/db/filter_ranks.ts";
import { addDays, todayIn } from "../src/shared/dashboard_math.ts";

const { values } = parseArgs({
  args: Deno.args,
  // --skip name: leave out the steps whose name contains it (e.g. visitor_days, the slowest).
  options: { schema: { type: "string" }, runs: { type: "string", default: "5" }, skip: { type: "string" } },
});
const url = Deno.env.get("DATABASE_URL");
if (!url || !values.schema || !/^[a-z_][a-z0-9_]*$/.test(values.schema)) {
  throw new Error("DATABASE_URL and --schema (a seeded schema) are needed");
}
const TZ = "America/Sao_Paulo";
const RUNS = Math.max(1, Number(values.runs));
const db = await openDb({ databaseUrl: url, schema: values.schema, max: 1 });
const steps: [string, (tx: Queryable, from: string, until: Date) => Promise<unknown>][] = [
  ["daily_totals", (tx, f, u) => rollUpTotals(tx, f, u, TZ)],
  ["daily_visit_ranks", (tx, f, u) => rollUpVisitRanks(tx, f, u, TZ)],
  ["visitor_days / visitor_spans", (tx, f, u) => rollUpVisitors(tx, f, u, TZ)],
  ["daily_engagement", (tx, f, u) => rollUpEngagement(tx, f, u, TZ)],
  ["hourly_totals (00031)", (tx, f, u) => rollUpHourly(tx, f, u, TZ)],
  ["open_day_sessions (00032)", (tx, f, u) => rollUpOpenDaySessions(tx, f, u, TZ)],
  ["daily_first_visits (00033)", (tx, f, u) => rollUpFirstVisits(tx, f, u, TZ)],
  ["daily_session_seconds (00034)", (tx, f, u) => rollUpSessionSeconds(tx, f, u, TZ)],
  ["daily_filter_engagement (00022)", (tx, f, u) => rollUpFilterEngagement(tx, f, u, TZ)],
  ["daily_filter_visit_ranks (00022)", (tx, f, u) => rollUpFilterRanks(tx, f, u, TZ)],
];
const now = new Date();
const today = todayIn(TZ, now);
const spans = [
  { label: "yesterday and today", from: addDays(today, -1) },
  { label: "today so far", from: today },
];
const visits = (await db.query<{ n: number }>("select count(*)::int as n from visits"))[0].n;
console.log(
  `schema ${values.schema}: ${visits} visits; ${RUNS} runs per step; load ${Deno.loadavg().join(" ")}`,
);
console.log("| span | step | p50 ms | max ms | load |");
console.log("| --- | --- | ---: | ---: | ---: |");
class Rollback extends Error {}
for (const span of spans) {
  for (const [name, step] of steps) {
    if (values.skip && name.includes(values.skip)) continue;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      try {
        await db.transaction(async (tx) => {
          await roomForRollups(tx);
          const t0 = performance.now();
          await step(tx, span.from, now);
          times.push(performance.now() - t0);
          throw new Rollback();
        });
      } catch (e) {
        if (!(e instanceof Rollback)) throw e;
      }
    }
    times.sort((a, b) => a - b);
    console.log(
      `| ${span.label} | ${name} | ${times[Math.floor((times.length - 1) / 2)].toFixed(0)} | ${
        times.at(-1)!.toFixed(0)
      } | ${Deno.loadavg()[0].toFixed(1)} |`,
    );
  }
}
await db.close();
