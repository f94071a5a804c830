// What the operator sees of the background jobs: each job's latest record (job_runs, written by every
// instance) with whether it is overdue, and the lead destinations failing now. The dashboard's "Saúde do
// sistema" shows it all; /readyz shows the jobs without their error text.
import type { Db } from "../db/client.ts";
import { jobRuns, type JobRunView } from "../db/job_runs.ts";
import { failingDestinations } from "../db/delivery_alerts.ts";

export interface JobStatus extends JobRunView {
  /** No record for three of its intervals (plus a minute): it stopped running, or no instance runs it. */
  overdue: boolean;
}

/** Beyond this without a record, a job is overdue. */
export function overdueAfterMs(everyMs: number): number {
  return 3 * everyMs + 60_000;
}

/** Each job's latest record, with whether it is overdue at `now`. */
export async function jobStatuses(db: Db, now: Date): Promise<JobStatus[]> {
  return (await jobRuns(db)).map((run) => ({
    ...run,
    overdue: now.getTime() - Date.parse(run.finishedAt) > overdueAfterMs(run.everyMs),
  }));
}

export interface SystemHealth {
  version: string;
  jobs: JobStatus[];
  /** Lead destinations failing now (two or more failed attempts in a row), since when. */
  failingDestinations: { destination: string; since: string }[];
}

/** The dashboard's "Saúde do sistema". */
export async function systemHealth(db: Db, version: string, now: Date): Promise<SystemHealth> {
  return {
    version,
    jobs: await jobStatuses(db, now),
    failingDestinations: await failingDestinations(db),
  };
}
