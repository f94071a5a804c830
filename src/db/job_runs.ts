// The background jobs' latest runs (migrations/00014).
import type { Queryable } from "./client.ts";

export interface JobRunRecord {
  name: string;
  everyMs: number;
  startedAt: Date;
  finishedAt: Date;
  runs: number;
  failedRuns: number;
  durationMs: number;
  status: "done" | "failed";
  result: Record<string, unknown>;
  /** The failure's message when status is "failed" (or some of the summed runs failed). */
  error?: string;
}

export interface JobRunView {
  name: string;
  everyMs: number;
  startedAt: string;
  finishedAt: string;
  runs: number;
  failedRuns: number;
  durationMs: number;
  status: "done" | "failed";
  result: Record<string, unknown>;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

/** Overwrites the job's row with this record, keeping the last success and the last failure. */
export async function recordJobRun(q: Queryable, r: JobRunRecord): Promise<void> {
  const failedAt = r.failedRuns > 0 ? r.finishedAt : null;
  const succeededAt = r.failedRuns < r.runs ? r.finishedAt : null;
  await q.query(
    `insert into job_runs (name, every_ms, started_at, finished_at, runs, failed_runs, duration_ms, status,
                           result, last_success_at, last_failure_at, last_error)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb, $10, $11, $12)
     on conflict (name) do update set
       every_ms = excluded.every_ms, started_at = excluded.started_at, finished_at = excluded.finished_at,
       runs = excluded.runs, failed_runs = excluded.failed_runs, duration_ms = excluded.duration_ms,
       status = excluded.status, result = excluded.result,
       last_success_at = coalesce(excluded.last_success_at, job_runs.last_success_at),
       last_failure_at = coalesce(excluded.last_failure_at, job_runs.last_failure_at),
       last_error = coalesce(excluded.last_error, job_runs.last_error)`,
    [
      r.name,
      r.everyMs,
      r.startedAt,
      r.finishedAt,
      r.runs,
      r.failedRuns,
      Math.round(r.durationMs),
      r.status,
      JSON.stringify(r.result),
      succeededAt,
      failedAt,
      failedAt ? (r.error ?? "erro desconhecido").slice(0, 500) : null,
    ],
  );
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Every job's latest record, by name. */
export async function jobRuns(q: Queryable): Promise<JobRunView[]> {
  const rows = await q.query<JobRunView>(
    `select name, every_ms as "everyMs", ${iso("started_at")} as "startedAt",
            ${iso("finished_at")} as "finishedAt", runs, failed_runs as "failedRuns",
            duration_ms as "durationMs", status, result, ${iso("last_success_at")} as "lastSuccessAt",
            ${iso("last_failure_at")} as "lastFailureAt", last_error as "lastError"
       from job_runs order by name`,
  );
  // Drivers differ in whether jsonb comes back parsed: one shape for callers.
  return rows.map((r) => ({ ...r, result: typeof r.result === "string" ? JSON.parse(r.result) : r.result }));
}
