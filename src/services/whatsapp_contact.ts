// What the dashboard shows of the WhatsApp speed to lead (issue 31): each lead's consent and message on its
// card, and the panel "Tempo até o primeiro contato". The facts are written by services/whatsapp.ts (outbox
// and webhook); this only reads them.
import type { Config } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import type { DayRange } from "../db/dashboard_queries.ts";
import { firstContactStats, whatsappOfLeads } from "../db/whatsapp.ts";
import type { FirstContact, LeadWhatsapp } from "../shared/admin_schemas.ts";
import { conversionRate } from "../shared/metrics.ts";
import { whatsappConfigured } from "./whatsapp.ts";

/** True when the lead has no WhatsApp fact at all (no consent, no number read, no message). */
function empty(w: LeadWhatsapp): boolean {
  return !w.consentAt && !w.e164 && !w.status && !w.repliedAt;
}

/**
 * Each lead's WhatsApp facts by id. A lead with none gets them all null while WhatsApp is configured (the
 * card says "sem consentimento") and null when it is not (the card says nothing of WhatsApp).
 */
export async function whatsappContacts(
  db: Queryable,
  ids: number[],
  configured: boolean,
): Promise<Map<number, LeadWhatsapp | null>> {
  const found = new Map<number, LeadWhatsapp | null>();
  for (const { leadId, ...w } of await whatsappOfLeads(db, ids)) {
    found.set(leadId, empty(w) && !configured ? null : w);
  }
  return found;
}

/** The leads with `whatsappContact` added (every other field as it was). */
export async function withWhatsappContact<T extends { id: number }>(
  db: Queryable,
  config: Config,
  leads: T[],
): Promise<Array<T & { whatsappContact: LeadWhatsapp | null }>> {
  const contacts = await whatsappContacts(db, leads.map((l) => Number(l.id)), whatsappConfigured(config));
  return leads.map((l) => ({ ...l, whatsappContact: contacts.get(Number(l.id)) ?? null }));
}

/** The panel "Tempo até o primeiro contato" over the local days of `range`. */
export async function firstContactReport(
  db: Queryable,
  config: Config,
  range: DayRange,
  tz: string,
): Promise<FirstContact> {
  const stats = await firstContactStats(db, range, tz);
  return {
    configured: whatsappConfigured(config),
    messaged: stats.messaged,
    toDelivered: stats.toDelivered,
    toReply: stats.toReply,
    channels: stats.channels.map((c) => ({ ...c, replyRate: conversionRate(c.replied, c.messaged) })),
  };
}
