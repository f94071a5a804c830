import type { Queryable } from "./client.ts";
import { leadState } from "../shared/br_states.ts";

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
  /** The visitor's first session in the attribution window, and the session that converted. */
  firstTouch?: LeadTouch;
  lastTouch?: LeadTouch & { referrer: string | null };
}

/** Where a session came from, as a lead keeps it. */
export interface LeadTouch {
  source: string;
  medium: string;
  campaign: string | null;
  channel: string;
  landingPage: string | null;
  /** When that session started (first touch only). */
  at?: Date;
}

/**
 * The state of a lead's WhatsApp number as `leads.whatsapp_state` keeps it (migrations/00023): its
 * two-letter code (shared/br_states.ts), '' for a number that is foreign or cannot be read.
 */
export function storedWhatsappState(whatsapp: string | null, page: string | null): string {
  return leadState(whatsapp, page) ?? "";
}

/**
 * Stores the state of the leads stored before the column existed (migrations/00023), `batch` at a time,
 * found through the partial index of those leads; returns how many were filled. For the roll-up job.
 */
export async function fillLeadStates(db: Queryable, batch = 2_000): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db.query<{ id: number; whatsapp: string; page: string | null }>(
      "select id, whatsapp, page from leads where whatsapp_state is null order by id limit $1",
      [batch],
    );
    if (!rows.length) return filled;
    await db.query(
      `update leads l set whatsapp_state = s.state
         from unnest($1::bigint[], $2::text[]) as s(id, state) where l.id = s.id`,
      [rows.map((r) => r.id), rows.map((r) => storedWhatsappState(r.whatsapp, r.page))],
    );
    filled += rows.length;
    if (rows.length < batch) return filled;
  }
}

/** Inserts a lead unless one with the same idempotency key exists; returns the new id or null. */
export async function insertLead(db: Queryable, lead: NewLead): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `insert into leads (idempotency_key, name, email, whatsapp, plan, plan_label, utm_source, utm_campaign,
       utm_medium, page, submitted_at, session_id, event_id, first_source, first_medium, first_campaign,
       first_channel, first_landing_page, first_touch_at, last_source, last_medium, last_campaign, last_channel,
       last_landing_page, last_referrer, whatsapp_state, utm_content, utm_term, device, browser, os, country,
       region)
     select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
       $22, $23, $24, $25, $26, v.utm_content, v.utm_term, v.device, v.browser, v.os, v.country, v.region
       -- The creative and keyword, and the audience's categories (migrations/00020): the session's latest page
       -- view in the 6 hours before the lead, read backwards along the occurred_at index (its page views are
       -- usually seconds before).
       from (select 1) one left join lateral (
         select utm_content, utm_term, device, browser, os, country, region from visits
          where $12::text <> '' and session_id = $12::text
            and occurred_at <= coalesce($11::timestamptz, now()) + interval '1 minute'
            and occurred_at > coalesce($11::timestamptz, now()) - interval '6 hours'
          order by occurred_at desc limit 1) v on true
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
      lead.firstTouch?.source ?? null,
      lead.firstTouch?.medium ?? null,
      lead.firstTouch?.campaign ?? null,
      lead.firstTouch?.channel ?? null,
      lead.firstTouch?.landingPage ?? null,
      lead.firstTouch?.at ?? null,
      lead.lastTouch?.source ?? null,
      lead.lastTouch?.medium ?? null,
      lead.lastTouch?.campaign ?? null,
      lead.lastTouch?.channel ?? null,
      lead.lastTouch?.landingPage ?? null,
      lead.lastTouch?.referrer ?? null,
      storedWhatsappState(lead.whatsapp, lead.page),
    ],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * The earliest session start (entry page view) from `since` to `until` of any of the visitor's keys, with its touch;
 * null when there is none (visits stored before migration 00011 have no entries).
 */
export async function firstEntry(
  db: Queryable,
  visitorKeys: string[],
  since: Date,
  until: Date,
): Promise<LeadTouch | null> {
  if (!visitorKeys.length) return null;
  const rows = await db.query<{
    at: string;
    source: string;
    medium: string;
    campaign: string | null;
    channel: string;
    landingPage: string;
  }>(
    `select occurred_at as at, traffic_source as source, traffic_medium as medium, utm_campaign as campaign,
            channel, source as "landingPage"
       from visits
      where entry and visitor_key = any($1::text[]) and occurred_at >= $2 and occurred_at <= $3
        and channel is not null
      order by occurred_at, id limit 1`,
    [visitorKeys, since, until],
  );
  const row = rows[0];
  return row ? { ...row, at: new Date(row.at) } : null;
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
