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
}

/** Inserts a lead unless one with the same idempotency key exists; returns the new id or null. */
export async function insertLead(db: Queryable, lead: NewLead): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `insert into leads (idempotency_key, name, email, whatsapp, plan, plan_label, utm_source, utm_campaign,
       utm_medium, page, submitted_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
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
    ],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** The id of the lead stored under an idempotency key, if any. */
export async function leadIdByKey(db: Queryable, key: string): Promise<number | null> {
  const rows = await db.query<{ id: number }>("select id from leads where idempotency_key = $1", [key]);
  return rows[0] ? Number(rows[0].id) : null;
}
