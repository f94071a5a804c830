import { SITE } from "../../site.ts";
import { isLeadEmail } from "../../shared/email.ts";
import type { LeadIntent } from "./lead_events.ts";

// The lead form's rules (docs/PRODUCT.md, _Lead modal_), kept apart from the component so they are tested
// directly.
export interface LeadFields {
  name: string;
  email: string;
  whatsapp: string;
}

export type LeadErrors = Partial<Record<keyof LeadFields, string>>;

/** Translation keys (in the `lead` namespace) of each field's error; empty when the form is valid. */
export function validateLead(fields: LeadFields): LeadErrors {
  const errors: LeadErrors = {};
  if (!fields.name.trim()) errors.name = "leadModal.validation.nameRequired";
  const email = fields.email.trim();
  if (!email) errors.email = "leadModal.validation.emailRequired";
  else if (!isLeadEmail(email)) errors.email = "leadModal.validation.emailInvalid";
  if (!fields.whatsapp.trim()) errors.whatsapp = "leadModal.validation.whatsappRequired";
  return errors;
}

/**
 * Conversion source (docs/PRODUCT.md, _What is tracked and when_): the lower-cased plan name, or the
 * specialist source.
 */
export function conversionSource(plan: { kind: "plan"; planName: string } | { kind: "specialist" }): string {
  return plan.kind === "plan"
    ? `pricing_${plan.planName.toLowerCase()}_plan`
    : "pricing_specialist_enterprise";
}

/** Custom data of the Meta Lead event: for a plan, its monthly price as the value, in BRL. */
export function leadEventData(intent: LeadIntent): Record<string, string | number> {
  if (intent.kind === "specialist") return { content_name: "Especialista", content_category: "pricing" };
  const price = SITE.plans.find((p) => p.key === intent.planKey)?.price;
  const data: Record<string, string | number> = {
    content_name: intent.planName,
    content_category: "pricing",
  };
  if (price !== undefined) Object.assign(data, { value: price, currency: SITE.structuredData.currency });
  return data;
}
