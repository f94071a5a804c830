import type { Config } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import {
  firstEntry,
  insertLead,
  leadByEventId,
  leadIdByKey,
  type LeadTouch,
  type PlanValue,
} from "../db/leads.ts";
import type { ClickId } from "../shared/click_ids.ts";
import { deriveTouch } from "./attribution.ts";
import type { MetaClient } from "./meta_event.ts";
import { queueMetaEvent } from "./meta.ts";
import { planPrice } from "../site.ts";
import { LEAD_OUTBOX_MAX_AGE_MS, SUBMITTED_AT_MAX_SKEW_MS } from "../shared/leads.ts";
import { deliveriesQueued, queueLeadDeliveries } from "./lead_delivery.ts";
import { queueWhatsapp } from "./whatsapp.ts";
import { ROLLUP_GRACE_MS } from "./rollups.ts";
import { changeRolledLeads } from "../db/lead_totals.ts";
import { keyLateLead } from "../db/filter_leads.ts";

export interface LeadInput {
  name: string;
  email: string;
  whatsapp: string;
  /** The plan's display name as the visitor saw it, or "Especialista". */
  plan: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  page: string | null;
  idempotencyKey: string | null;
  /** Meta event id shared with the browser pixel (deduplication); absent = no server-side event. */
  eventId: string | null;
  /** The browser's tracking session id. */
  sessionId: string | null;
  /** When the visitor submitted it by the browser's clock (epoch ms); checked by `submissionTime`. */
  submittedAt: number | null;
  /** The converting session's referring host and landing URL click ids (its touch, with the UTM fields). */
  referrer?: string | null;
  clickIds?: ClickId[];
  /** The converting session's first page (path and query). */
  landingPage?: string | null;
  /** The visitor ticked "Quero receber o contato pelo WhatsApp". */
  whatsappConsent?: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function attributionStart(config: Config, submittedAt: Date): Date {
  return new Date(submittedAt.getTime() - config.ATTRIBUTION_DAYS * DAY_MS);
}

/**
 * A lead's last touch (the session that converted, from what the browser reported of it) and first touch
 * (the visitor's first session start within ATTRIBUTION_DAYS before the lead, found by its visitor keys of
 * those months; the last touch when there is none).
 */
async function leadTouches(
  db: Queryable,
  config: Config,
  input: LeadInput,
  submittedAt: Date,
  visitorKeys: string[],
): Promise<{ first: LeadTouch; last: LeadTouch & { referrer: string | null } }> {
  const touch = deriveTouch({
    utmSource: input.utmSource,
    utmMedium: input.utmMedium,
    utmCampaign: input.utmCampaign,
    referrer: input.referrer ?? null,
    clickIds: input.clickIds ?? [],
  }, new URL(config.PUBLIC_ORIGIN).hostname);
  const last = { ...touch, landingPage: input.landingPage ?? null };
  const first = await firstEntry(db, visitorKeys, attributionStart(config, submittedAt), submittedAt);
  const { referrer: _, ...lastTouch } = last;
  return { first: first ?? { ...lastTouch, at: undefined }, last };
}

/** A lead stored with a time older than this may be behind the roll-up watermark (ROLLUP_GRACE_MS). */
const LATE_LEAD_MS = ROLLUP_GRACE_MS / 2;

/**
 * The time a lead is stored with: the browser's submission time when it is plausible (not ahead of the
 * server by more than the clock skew, not older than the browser outbox keeps a lead), else the server's
 * time. An implausible value is not refused: a 4xx would make the browser drop the lead, and a visitor's
 * wrong clock must not cost a lead; it only loses the original time. A time slightly ahead counts as now.
 */
export function submissionTime(claimed: number | null, now: Date): Date {
  if (claimed === null) return now;
  const at = now.getTime();
  if (claimed > at + SUBMITTED_AT_MAX_SKEW_MS || claimed < at - LEAD_OUTBOX_MAX_AGE_MS) return now;
  return new Date(Math.min(claimed, at));
}

/** Maps a plan display name in any language to the stored plan value. */
export function planValue(label: string): PlanValue {
  const words = label.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/[^a-z]+/);
  if (words.includes("micro")) return "micro";
  if (words.includes("premium")) return "premium";
  if (words.includes("pro")) return "pro";
  if (words.some((w) => w === "especialista" || w === "specialist" || w === "enterprise")) {
    return "enterprise";
  }
  return "unknown";
}

/**
 * The custom data of a lead's Meta `Lead` event, decided here from site data, never taken from a browser:
 * the plan's price in BRL (src/site.ts) when it has one; the specialist has no price, so no value is sent.
 */
export function leadCustomData(planLabel: string): Record<string, string | number> {
  const price = planPrice(planValue(planLabel));
  const data: Record<string, string | number> = { content_name: planLabel, content_category: "pricing" };
  return price === null ? data : { ...data, currency: "BRL", value: price };
}

/** A URL on the site's own origin, or undefined: only those go to Meta as `event_source_url`. */
export function ownPageUrl(config: Pick<Config, "PUBLIC_ORIGIN">, url: string | null | undefined) {
  if (!url) return undefined;
  try {
    return new URL(url).origin === config.PUBLIC_ORIGIN ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Meta `Lead` event of the stored lead with this event id (what the browser pixel reported), built from
 * the lead itself; null when no lead has that id, so no one can make the server send a `Lead` of their own.
 */
export async function leadEventOf(db: Queryable, eventId: string, eventSourceUrl: string) {
  const lead = await leadByEventId(db, eventId);
  if (!lead) return null;
  return {
    eventName: "Lead",
    eventId,
    eventSourceUrl,
    customData: leadCustomData(lead.planLabel),
    email: lead.email,
    phone: lead.whatsapp,
  };
}

/**
 * Stores a lead, its deliveries to the sales team's destinations and, when the browser asked for it, its
 * Meta `Lead` event, in one transaction: the lead is committed before the caller answers. A re-send with the
 * same idempotency key returns the first id.
 */
export async function saveLead(
  db: Db,
  config: Config,
  input: LeadInput,
  context: {
    client: MetaClient;
    now: Date;
    /** The visitor's keys of the months since a date (server/middleware/visitor.ts visitorKeysSinceOf). */
    keysSince?: (since: Date) => Promise<string[]>;
  },
): Promise<{ id: number; created: boolean }> {
  const submittedAt = submissionTime(input.submittedAt, context.now);
  // Before the transaction: on PGlite (one connection) a query outside it would wait for it forever.
  const visitorKeys = await context.keysSince?.(attributionStart(config, submittedAt)) ?? [];
  const saved = await db.transaction(async (tx) => {
    const touches = await leadTouches(tx, config, input, submittedAt, visitorKeys);
    const id = await insertLead(tx, {
      idempotencyKey: input.idempotencyKey,
      name: input.name,
      email: input.email,
      whatsapp: input.whatsapp,
      plan: planValue(input.plan),
      planLabel: input.plan,
      utmSource: input.utmSource,
      utmCampaign: input.utmCampaign,
      utmMedium: input.utmMedium,
      page: input.page,
      submittedAt,
      sessionId: input.sessionId,
      eventId: input.eventId,
      firstTouch: touches.first,
      lastTouch: touches.last,
    });
    if (id === null) return { id: (await leadIdByKey(tx, input.idempotencyKey!))!, created: false };
    // A lead the browser's outbox sent late keeps its submission time, which can be behind the roll-up
    // watermark: it joins the leads' roll-up here. A recent one is within the roll-up's grace, like an event.
    if (context.now.getTime() - submittedAt.getTime() > LATE_LEAD_MS) {
      await changeRolledLeads(tx, [id], 1, config.ANALYTICS_TZ);
      // Its day's session keys may be written already: it gets its own (db/filter_leads.ts).
      await keyLateLead(tx, id, config.ANALYTICS_TZ);
    }
    await queueLeadDeliveries(tx, config, id, context.now);
    await queueWhatsapp(tx, config, id, {
      whatsapp: input.whatsapp,
      page: input.page,
      consent: input.whatsappConsent === true,
    }, context.now);
    if (input.eventId) {
      await queueMetaEvent(
        tx,
        config,
        {
          eventName: "Lead",
          eventId: input.eventId,
          eventSourceUrl: ownPageUrl(config, input.page),
          customData: leadCustomData(input.plan),
          email: input.email,
          phone: input.whatsapp,
        },
        context.client,
        context.now,
      );
    }
    return { id, created: true };
  });
  // Committed: the delivery job may send it now (a re-send of the same lead queues nothing new).
  if (saved.created) deliveriesQueued.dispatchEvent(new Event("queued"));
  return saved;
}
