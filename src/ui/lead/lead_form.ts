// The lead form's rules (spec section 5), kept apart from the component so they are tested directly.
export interface LeadFields {
  name: string;
  email: string;
  whatsapp: string;
}

export type LeadErrors = Partial<Record<keyof LeadFields, string>>;

const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** Translation keys (in the `lead` namespace) of each field's error; empty when the form is valid. */
export function validateLead(fields: LeadFields): LeadErrors {
  const errors: LeadErrors = {};
  if (!fields.name.trim()) errors.name = "leadModal.validation.nameRequired";
  const email = fields.email.trim();
  if (!email) errors.email = "leadModal.validation.emailRequired";
  else if (!EMAIL_PATTERN.test(email)) errors.email = "leadModal.validation.emailInvalid";
  if (!fields.whatsapp.trim()) errors.whatsapp = "leadModal.validation.whatsappRequired";
  return errors;
}

/** Conversion source of spec section 7: the lower-cased plan name, or the specialist source. */
export function conversionSource(plan: { kind: "plan"; planName: string } | { kind: "specialist" }): string {
  return plan.kind === "plan"
    ? `pricing_${plan.planName.toLowerCase()}_plan`
    : "pricing_specialist_enterprise";
}
