// Direct inserts into the tracking tables, for dashboard tests (the public endpoints have their own tests).
import type { Queryable } from "../src/db/client.ts";
import { type AnyTrackedEvent, columnsOf, type EventTable } from "../src/db/event_columns.ts";

/** Stores one event with every column the server writes for `table` (the batch writer's column list). */
export async function insertTrackedEvent(
  db: Queryable,
  table: EventTable,
  e: AnyTrackedEvent,
): Promise<void> {
  const columns = columnsOf(table);
  await db.query(
    `insert into ${table} (${columns.map((c) => c.name).join(", ")})
     values (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
    columns.map((c) => c.value(e)),
  );
}

export interface Utm {
  utmSource?: string | null;
  utmCampaign?: string | null;
  utmMedium?: string | null;
}

/** São Paulo local time (UTC-3, no daylight saving since 2019) as an instant. */
export function sp(local: string): Date {
  return new Date(local + "-03:00");
}

/** A session's derived touch, as the server stores it (migrations/00011); absent: a row from before it. */
export interface TouchFixture {
  trafficSource?: string;
  channel?: string;
  /** The page started its session. */
  entry?: boolean;
}

export async function insertVisit(
  db: Queryable,
  at: Date,
  visitorKey: string,
  source: string,
  utm: Utm = {},
  touch: TouchFixture = {},
) {
  await db.query(
    `insert into visits (occurred_at, visitor_key, source, utm_source, utm_campaign, utm_medium, traffic_source,
       channel, entry)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      at,
      visitorKey,
      source,
      utm.utmSource ?? null,
      utm.utmCampaign ?? null,
      utm.utmMedium ?? null,
      touch.trafficSource ?? null,
      touch.channel ?? null,
      touch.entry ?? false,
    ],
  );
}

export async function insertClick(
  db: Queryable,
  at: Date,
  utm: Utm = {},
  source = "pricing_pro_plan",
  touch: TouchFixture = {},
  kind: "plan" | "whatsapp" = "plan",
) {
  await db.query(
    `insert into clicks (occurred_at, visitor_key, source, utm_source, utm_campaign, utm_medium, traffic_source,
       channel, kind)
     values ($1, 'k', $2, $3, $4, $5, $6, $7, $8)`,
    [
      at,
      source,
      utm.utmSource ?? null,
      utm.utmCampaign ?? null,
      utm.utmMedium ?? null,
      touch.trafficSource ?? null,
      touch.channel ?? null,
      kind,
    ],
  );
}

/** A WhatsApp click (migrations/00017) on `page`. */
export async function insertWhatsappClick(
  db: Queryable,
  at: Date,
  page: string,
  utm: Utm = {},
  touch: TouchFixture = {},
) {
  await insertClick(db, at, utm, page, touch, "whatsapp");
}

export async function insertConversion(
  db: Queryable,
  at: Date,
  utm: Utm = {},
  source = "pricing_pro_plan",
  touch: TouchFixture = {},
) {
  await db.query(
    `insert into conversions (occurred_at, visitor_key, source, utm_source, utm_campaign, utm_medium, channel)
     values ($1, 'k', $2, $3, $4, $5, $6)`,
    [
      at,
      source,
      utm.utmSource ?? null,
      utm.utmCampaign ?? null,
      utm.utmMedium ?? null,
      touch.channel ?? null,
    ],
  );
}

export interface LeadFixture extends Utm {
  name: string;
  email: string;
  whatsapp: string;
  plan?: "micro" | "pro" | "premium" | "enterprise" | "unknown";
  planLabel?: string;
  /** The converting session's channel (last touch). */
  lastChannel?: string;
}

export async function insertLead(db: Queryable, at: Date, lead: LeadFixture) {
  await db.query(
    `insert into leads (submitted_at, name, email, whatsapp, plan, plan_label, utm_source, utm_campaign, utm_medium,
       last_channel)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      at,
      lead.name,
      lead.email,
      lead.whatsapp,
      lead.plan ?? "pro",
      lead.planLabel ?? "",
      lead.utmSource ?? null,
      lead.utmCampaign ?? null,
      lead.utmMedium ?? null,
      lead.lastChannel ?? null,
    ],
  );
}
