// `deno task report:send --week 2026-W47`: sends that week's report now, by hand, to the administrator and
// REPORT_TO (whatever the dashboard's switch says, and whether or not the week was sent already; the weekly
// schedule's record is left as it is), and prints what was sent. Exits 2 on a bad argument or without SMTP,
// 1 when the send fails. With the embedded database, stop the server first: two processes must never open
// one DATA_DIR.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import {
  reportAvailable,
  reportMailer,
  reportRecipients,
  sendWeeklyReport,
  weekProblem,
} from "../src/services/weekly_report.ts";
import { weekText } from "../src/services/weekly_report_email.ts";
import { weeklyLeadsByState } from "../src/services/audience_reports.ts";

const USAGE = "usage: deno task report:send --week 2026-W47";

function fail(message: string): never {
  console.error(`report:send: ${message}\n${USAGE}`);
  Deno.exit(2);
}

let week: string | undefined;
try {
  const { values } = parseArgs({ args: Deno.args, options: { week: { type: "string" } }, strict: true });
  week = values.week;
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (!week) fail("which week? give --week");
const config = loadConfig(Deno.env.toObject());
const problem = weekProblem(week, config.ANALYTICS_TZ, new Date());
if (problem) fail(problem);
if (!reportAvailable(config)) {
  fail("SMTP is not configured: set SMTP_URL (with LEAD_NOTIFY_TO and LEAD_NOTIFY_FROM)");
}

const db = await openDb({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  minFreeBytes: config.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
});
const mailer = reportMailer(config);
let code = 0;
try {
  await migrate(db);
  const to = await reportRecipients(db, config);
  if (to.length === 0) {
    console.error("report:send: nobody to send it to: create the administrator or set REPORT_TO");
    code = 2;
  } else {
    const sent = await sendWeeklyReport(db, config, mailer, week, to, new Date(), {
      leadsByState: weeklyLeadsByState(db, config.ANALYTICS_TZ),
    });
    console.log(`sent: ${sent.subject}`);
    console.log(`to: ${sent.to.join(", ")}`);
    console.log(
      `week: ${week} (${weekText(sent.report.range)}), compared with ${weekText(sent.report.previous)}`,
    );
    for (const f of sent.report.figures) {
      console.log(
        `  ${f.name}: ${f.current}${f.rate ? "%" : ""} (semana anterior: ${f.previous}${f.rate ? "%" : ""})`,
      );
    }
    console.log(`link: ${sent.report.dashboardUrl}`);
  }
} catch (error) {
  console.error(`report:send: not sent: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
} finally {
  mailer.close();
  await db.close();
}
Deno.exit(code);
