// `deno task jobs:run NAME`: runs one background job now, as the server would (under its lock, logged and
// recorded in job_runs, so the dashboard's "Saúde do sistema" shows it), prints what it did and exits: 0 when
// it ran, 1 when it failed or another instance was running it. `deno task jobs:run` alone lists the names.
import { loadConfig } from "../src/config.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { runJobNow } from "../src/services/jobs.ts";
import { jobRecorder, scheduledJobs } from "../src/services/schedule.ts";
import { VisitorKeys } from "../src/services/visitor_key.ts";

const name = Deno.args[0];
const config = loadConfig(Deno.env.toObject());
const db = await openDb({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  minFreeBytes: config.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
});
let code = 0;
try {
  await migrate(db);
  const jobs = await scheduledJobs(db, config, new VisitorKeys(db, config.ANALYTICS_TZ));
  const job = jobs.find((j) => j.name === name);
  if (!job) {
    console.error(
      `${name ? `no job named "${name}"` : "which job?"}: deno task jobs:run ${
        jobs.map((j) => j.name).join("|")
      }` +
        " (meta-delivery, lead-delivery and weekly-report exist only when configured)",
    );
    code = 2;
  } else {
    const outcome = await runJobNow(job, { record: jobRecorder(db) });
    job.close?.();
    if (outcome.status === "done") console.log(JSON.stringify(outcome.result ?? null));
    else if (outcome.status === "locked") {
      console.error(`${name}: another instance is running it now; nothing was done`);
      code = 1;
    } else code = 1;
  }
} finally {
  await db.close();
}
Deno.exit(code);
