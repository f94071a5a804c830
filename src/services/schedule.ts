// The background jobs of a running server, in one list: main.ts starts them, `deno task jobs:run NAME` runs
// one of them by hand, and both record each run in job_runs (what the dashboard's "Saúde do sistema" and
// /readyz show).
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { recordJobRun } from "../db/job_runs.ts";
import { backupJob } from "./backups.ts";
import { type JobSpec, type RunRecorder, startJobs } from "./jobs.ts";
import { deliveriesQueued, leadDeliveryJob } from "./lead_delivery.ts";
import { metaDeliveryJob } from "./meta.ts";
import { retentionJobs } from "./retention.ts";
import { rollupJob } from "./rollups.ts";
import type { VisitorKeys } from "./visitor_key.ts";
import { weeklyReportJob } from "./weekly_report.ts";
import { weeklyLeadsByState } from "./audience_reports.ts";

/** Every job this configuration runs (the delivery workers only when something is configured). */
export async function scheduledJobs(
  db: Db,
  config: Config,
  visitorKeys?: VisitorKeys,
): Promise<JobSpec<unknown>[]> {
  return [
    // Queued Meta events (none without pixel id and token) and new leads for the configured destinations
    // (webhook, Pipefy, Trello, e-mail), every two seconds in every instance.
    metaDeliveryJob(db, config),
    leadDeliveryJob(db, config),
    // Dashboard roll-ups up to two minutes ago, soon after start and every five minutes (migrations/00006).
    rollupJob(db, { timeZone: config.ANALYTICS_TZ }),
    // Raw events past RETENTION_DAYS, expired sessions, old counters and salts, hourly; with several
    // instances only the holder of each job's lock works.
    ...retentionJobs(db, {
      retentionDays: config.RETENTION_DAYS,
      timeZone: config.ANALYTICS_TZ,
      visitorKeys,
    }),
    // Verified backups into BACKUP_DIR every BACKUP_EVERY_HOURS, the newest BACKUP_KEEP kept (PGlite only).
    await backupJob(db, config),
    // Last week's figures by e-mail, Mondays from 08:00 in ANALYTICS_TZ, when SMTP is configured: checked
    // every minute in every instance, sent by one of them, retried until sent.
    weeklyReportJob(db, config, { leadsByState: weeklyLeadsByState(db, config.ANALYTICS_TZ) }),
  ].filter((job) => job !== null) as JobSpec<unknown>[];
}

/** Records runs in the database, shared by every instance. */
export function jobRecorder(db: Db): RunRecorder {
  return (record) => recordJobRun(db, record);
}

/**
 * Starts the server's jobs, each run recorded. A lead saved in this process wakes the delivery job at once
 * (a run already under way is left to finish; the next poll takes what it did not).
 */
export async function startScheduledJobs(db: Db, config: Config, visitorKeys: VisitorKeys) {
  const started = startJobs(await scheduledJobs(db, config, visitorKeys), { record: jobRecorder(db) });
  const delivery = started.jobs.find((job) => job.name === "lead-delivery");
  if (!delivery) return started;
  // One loop at a time: each pass is a whole run begun after every wake seen so far; a wake during a pass
  // asks for another. While the scheduled poll's own run is under way, it waits for it to end.
  let wanted = false;
  let loop: Promise<void> | null = null;
  const wake = () => {
    wanted = true;
    loop ??= (async () => {
      while (wanted) {
        wanted = false;
        let outcome = await delivery.runNow();
        while (outcome.status === "busy") {
          await new Promise((resolve) => setTimeout(resolve, 50));
          outcome = await delivery.runNow();
        }
        if (outcome.status === "stopped") return;
      }
    })().finally(() => loop = null);
  };
  deliveriesQueued.addEventListener("queued", wake);
  return {
    ...started,
    stop: async () => {
      deliveriesQueued.removeEventListener("queued", wake);
      await started.stop();
      await loop;
    },
  };
}
