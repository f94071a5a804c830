import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { insertLead, leadIdByKey, type PlanValue } from "../db/leads.ts";
import type { MetaClient } from "./meta_event.ts";
import { queueMetaEvent } from "./meta.ts";
import { queueLeadDeliveries } from "./lead_delivery.ts";

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
 * Stores a lead, its deliveries to the sales team's destinations and, when the browser asked for it, its
 * Meta `Lead` event, in one transaction: the lead is committed before the caller answers. A re-send with the same idempotency key returns the first id.
 */
export async function saveLead(
  db: Db,
  config: Config,
  input: LeadInput,
  context: { client: MetaClient; now: Date },
): Promise<{ id: number; created: boolean }> {
  return await db.transaction(async (tx) => {
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
      submittedAt: context.now,
    });
    if (id === null) return { id: (await leadIdByKey(tx, input.idempotencyKey!))!, created: false };
    await queueLeadDeliveries(tx, config, id, context.now);
    if (input.eventId) {
      await queueMetaEvent(
        tx,
        config,
        {
          eventName: "Lead",
          eventId: input.eventId,
          eventSourceUrl: input.page ?? undefined,
          customData: { content_name: input.plan, content_category: "pricing", currency: "BRL", value: 0 },
          email: input.email,
          phone: input.whatsapp,
        },
        context.client,
        context.now,
      );
    }
    return { id, created: true };
  });
}
