import type { Queryable } from "./client.ts";

export type PlanValue = "micro" | "pro" | "premium" | "enterprise" | "unknown";

export interface NewLead {
  idempotencyKey: string | null;
  name: string;
  email: string;
  whatsapp: string;
  plan: PlanValue;
  planLabel: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  page: string | null;
  submittedAt: Date;
  /** The browser's tracking session id (conversions are counted against that session's leads). */
  sessionId?: string | null;
  /** The Meta event id shared with the browser pixel, if any. */
  eventId?: string | null;
}

/** Inserts a lead unless one with the same idempotency key exists; returns the new id or null. */
export async function insertLead(db: Queryable, lead: NewLead): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `insert into leads (idempotency_key, name, email, whatsapp, plan, plan_label, utm_source, utm_campaign,
       utm_medium, page, submitted_at, session_id, event_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict (idempotency_key) do nothing
     returning id`,
    [
      lead.idempotencyKey,
      lead.name,
      lead.email,
      lead.whatsapp,
      lead.plan,
      lead.planLabel,
      lead.utmSource,
      lead.utmCampaign,
      lead.utmMedium,
      lead.page,
      lead.submittedAt,
      lead.sessionId ?? null,
      lead.eventId ?? null,
    ],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** The id of the lead stored under an idempotency key, if any. */
export async function leadIdByKey(db: Queryable, key: string): Promise<number | null> {
  const rows = await db.query<{ id: number }>("select id from leads where idempotency_key = $1", [key]);
  return rows[0] ? Number(rows[0].id) : null;
}

/** What a Meta `Lead` event needs from the lead stored with this event id, if there is one. */
export async function leadByEventId(
  db: Queryable,
  eventId: string,
): Promise<{ planLabel: string; email: string; whatsapp: string } | null> {
  const rows = await db.query<{ plan_label: string; email: string; whatsapp: string }>(
    "select plan_label, email, whatsapp from leads where event_id = $1 order by id limit 1",
    [eventId],
  );
  return rows[0] ? { planLabel: rows[0].plan_label, email: rows[0].email, whatsapp: rows[0].whatsapp } : null;
}
