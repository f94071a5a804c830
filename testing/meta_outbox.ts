// What the Meta outbox holds, for tests: the production code only queues, claims and marks rows.
import type { Queryable } from "../src/db/client.ts";

export interface OutboxStatus {
  eventId: string;
  eventName: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
  payload: Record<string, unknown>;
}

/** Every outbox row, oldest first. */
export async function listMetaEvents(db: Queryable): Promise<OutboxStatus[]> {
  const rows = await db.query<{
    event_id: string;
    event_name: string;
    status: OutboxStatus["status"];
    attempts: number;
    last_error: string | null;
    payload: Record<string, unknown> | string;
  }>("select event_id, event_name, status, attempts, last_error, payload from meta_outbox order by id");
  return rows.map((r) => ({
    eventId: r.event_id,
    eventName: r.event_name,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload,
  }));
}
