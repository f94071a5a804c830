import type { Queryable } from "./client.ts";

export interface OutboxRow {
  id: number;
  eventId: string;
  eventName: string;
  payload: Record<string, unknown>;
  attempts: number;
  createdAt: Date;
}

/** Queues one server event; a second event with the same event_id is ignored. Returns true when queued. */
export async function enqueueMetaEvent(
  db: Queryable,
  eventId: string,
  eventName: string,
  payload: Record<string, unknown>,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `insert into meta_outbox (event_id, event_name, payload, next_attempt_at, created_at)
     values ($1, $2, $3::text::jsonb, $4, $4)
     on conflict (event_id) do nothing
     returning id`,
    [eventId, eventName, JSON.stringify(payload), now],
  );
  return rows.length > 0;
}

/**
 * Claims up to `limit` due events by pushing their next attempt to `leaseUntil`, so another instance
 * (or a crash) cannot send them twice in the meantime; `skip locked` lets instances claim side by side.
 */
export async function claimDueMetaEvents(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  const rows = await db.query<{
    id: number;
    event_id: string;
    event_name: string;
    payload: Record<string, unknown> | string;
    attempts: number;
    created_at: Date;
  }>(
    `update meta_outbox set next_attempt_at = $2
      where id in (
        select id from meta_outbox
         where status = 'pending' and next_attempt_at <= $1
         order by next_attempt_at, id
         limit $3
         for update skip locked)
     returning id, event_id, event_name, payload, attempts, created_at`,
    [now, leaseUntil, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    eventId: r.event_id,
    eventName: r.event_name,
    payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
  })).sort((a, b) => a.id - b.id);
}

/** Marks events delivered and drops their user data (IP, user agent, hashes): it is no longer needed. */
export async function markMetaEventsSent(db: Queryable, ids: number[], now: Date): Promise<void> {
  await db.query(
    `update meta_outbox set status = 'sent', sent_at = $2, attempts = attempts + 1, last_error = null,
       payload = payload - 'user_data'
     where id = any($1::bigint[])`,
    [ids, now],
  );
}

/** Marks events as permanently failed (not retried) and drops their user data. */
export async function markMetaEventsFailed(db: Queryable, ids: number[], error: string): Promise<void> {
  await db.query(
    `update meta_outbox set status = 'failed', attempts = attempts + 1, last_error = $2,
       payload = payload - 'user_data'
     where id = any($1::bigint[])`,
    [ids, error.slice(0, 1000)],
  );
}

/** Records a transient failure of one event and when to try again. */
export async function rescheduleMetaEvent(
  db: Queryable,
  id: number,
  nextAttemptAt: Date,
  error: string,
): Promise<void> {
  await db.query(
    `update meta_outbox set attempts = attempts + 1, next_attempt_at = $2, last_error = $3 where id = $1`,
    [id, nextAttemptAt, error.slice(0, 1000)],
  );
}
