import type { Queryable } from "./client.ts";

export interface TrackedEvent {
  occurredAt: Date;
  visitorKey: string;
  sessionId: string;
  source: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
}

export interface TrackedVisit extends TrackedEvent {
  utmTerm: string | null;
  utmContent: string | null;
}

/** Stores one page view. */
export async function insertVisit(db: Queryable, v: TrackedVisit): Promise<void> {
  await db.query(
    `insert into visits (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign, utm_medium,
       utm_term, utm_content)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      v.occurredAt,
      v.visitorKey,
      v.sessionId,
      v.source,
      v.utmSource,
      v.utmCampaign,
      v.utmMedium,
      v.utmTerm,
      v.utmContent,
    ],
  );
}

/** Stores one plan-button click. */
export async function insertClick(db: Queryable, e: TrackedEvent): Promise<void> {
  await db.query(
    `insert into clicks (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign, utm_medium)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [e.occurredAt, e.visitorKey, e.sessionId, e.source, e.utmSource, e.utmCampaign, e.utmMedium],
  );
}

/** Stores one submitted lead form (as reported by the browser). */
export async function insertConversion(db: Queryable, e: TrackedEvent): Promise<void> {
  await db.query(
    `insert into conversions (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign,
       utm_medium)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [e.occurredAt, e.visitorKey, e.sessionId, e.source, e.utmSource, e.utmCampaign, e.utmMedium],
  );
}
