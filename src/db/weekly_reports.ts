// The weekly report's switch and its per-week sending record (migrations/00021).
import type { Queryable } from "./client.ts";
import type { DayRange } from "./dashboard_queries.ts";

/** The stored switch: null while the administrator has never changed it (the report is then on). */
export async function weeklyReportSetting(q: Queryable): Promise<boolean | null> {
  const rows = await q.query<{ enabled: boolean }>("select enabled from weekly_report_setting");
  return rows[0]?.enabled ?? null;
}

/** Stores the switch. */
export async function setWeeklyReportSetting(q: Queryable, enabled: boolean, at: Date): Promise<void> {
  await q.query(
    `insert into weekly_report_setting (id, enabled, changed_at) values (true, $1, $2)
     on conflict (id) do update set enabled = excluded.enabled, changed_at = excluded.changed_at`,
    [enabled, at],
  );
}

/**
 * Takes the week's report for sending when it is due: recorded as pending if new, not sent yet, its next
 * attempt due and no other instance holding it. Returns the attempt's number (the lease's token), or null
 * when another instance holds it, it was sent, or its retry is not due yet.
 */
export async function claimWeeklyReport(
  q: Queryable,
  week: string,
  now: Date,
  leaseMs: number,
): Promise<number | null> {
  await q.query(
    "insert into weekly_reports (week, next_attempt_at) values ($1, $2) on conflict (week) do nothing",
    [week, now],
  );
  // Under READ COMMITTED a second instance's update waits for the first and re-reads the row: the lease the
  // first one set makes it match nothing.
  const rows = await q.query<{ attempts: number }>(
    `update weekly_reports set attempts = attempts + 1, lease_until = $2::timestamptz + $3 * interval '1 millisecond'
      where week = $1 and status = 'pending' and next_attempt_at <= $2
        and (lease_until is null or lease_until <= $2)
     returning attempts`,
    [week, now, leaseMs],
  );
  return rows[0]?.attempts ?? null;
}

/** Records the week as sent, if this attempt still holds it; true when it did. */
export async function markWeeklyReportSent(
  q: Queryable,
  week: string,
  attempt: number,
  at: Date,
  recipients: number,
): Promise<boolean> {
  const rows = await q.query(
    `update weekly_reports set status = 'sent', sent_at = $3, lease_until = null, recipients = $4
      where week = $1 and attempts = $2 and status = 'pending' returning week`,
    [week, attempt, at, recipients],
  );
  return rows.length > 0;
}

/** Records a failed attempt and when the next one is due, if this attempt still holds the week. */
export async function markWeeklyReportFailed(
  q: Queryable,
  week: string,
  attempt: number,
  at: Date,
  nextAttemptAt: Date,
  error: string,
): Promise<void> {
  await q.query(
    `update weekly_reports set lease_until = null, next_attempt_at = $4, last_error = $5, last_failure_at = $3
      where week = $1 and attempts = $2 and status = 'pending'`,
    [week, attempt, at, nextAttemptAt, error.slice(0, 500)],
  );
}

export interface WeeklyReportRecord {
  week: string;
  status: "pending" | "sent";
  attempts: number;
  sentAt: string | null;
  nextAttemptAt: string;
  lastError: string | null;
  recipients: number | null;
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The most recent week's record (the dashboard's "último envio"), if any. */
export async function latestWeeklyReport(q: Queryable): Promise<WeeklyReportRecord | null> {
  const rows = await q.query<WeeklyReportRecord>(
    `select week, status, attempts, ${iso("sent_at")} as "sentAt", ${
      iso("next_attempt_at")
    } as "nextAttemptAt",
            last_error as "lastError", recipients
       from weekly_reports order by week desc limit 1`,
  );
  return rows[0] ?? null;
}

/**
 * Leads sent in the range (local days) of which at least one delivery to the sales team's tools failed for
 * good: a count, nothing about who.
 */
export async function leadsWithFailedDelivery(q: Queryable, range: DayRange, tz: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `select count(*)::int as n from leads l
      where l.submitted_at >= ($1::date)::timestamp at time zone $3
        and l.submitted_at < ($2::date + 1)::timestamp at time zone $3
        and exists (select 1 from lead_deliveries d where d.lead_id = l.id and d.status = 'failed')`,
    [range.start, range.end, tz],
  );
  return rows[0].n;
}
