// The weekly report's cost: how long building last week's figures and its e-mail takes (what the job does once
// a week on one instance, and `report:send`), over testing/seed.ts's data set in a fresh PostgreSQL schema
// (DATABASE_URL) or PGlite. Prints numbers only.
//   deno run -A bench/weekly_report.ts [--visits 200000] [--runs 5]
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { dueWeek, weeklyReport } from "../src/services/weekly_report.ts";
import { weeklyMessage } from "../src/services/weekly_report_email.ts";
import { seedAnalytics } from "../testing/seed.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "5" }, visits: { type: "string", default: "200000" } },
});
const RUNS = Math.max(1, Number(values.runs));
const TZ = "America/Sao_Paulo";
const url = Deno.env.get("DATABASE_URL") || undefined;
const schema = url ? `bench_report_${Date.now()}` : "";
const admin = url ? await openDb({ databaseUrl: url, max: 1 }) : undefined;
await admin?.exec(`create schema ${schema}`);
const db = await openDb(url ? { databaseUrl: url, schema } : {});
try {
  await migrate(db);
  const seeded = await seedAnalytics(db, {
    visits: Number(values.visits),
    timeZone: TZ,
    copy: url ? { url, schema } : undefined,
  });
  console.log(`${url ? "PostgreSQL" : "PGlite"}: ${seeded.visits} visits over 90 days`);
  const config = loadConfig({ LOG_LEVEL: "warn", ANALYTICS_TZ: TZ });
  // The week due now (last week; the one before on a Monday morning): inside the seeded days.
  const week = dueWeek(new Date(), TZ);
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    const t0 = performance.now();
    const message = weeklyMessage(await weeklyReport(db, config, week, new Date()), "ZapFlow");
    if (i >= 1) times.push(performance.now() - t0);
    size = new TextEncoder().encode(message.html).byteLength;
  }
  times.sort((a, b) => a - b);
  console.log(
    `weekly report ${week}: p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms, max ${
      times[times.length - 1].toFixed(1)
    } ms over ${RUNS} runs; HTML ${size} bytes`,
  );
} finally {
  await db.close();
  await admin?.exec(`drop schema ${schema} cascade`);
  await admin?.close();
}
