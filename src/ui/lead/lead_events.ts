/** What a pricing button asks for when it opens the lead modal (spec section 4, "Lead modal"). */
export type LeadIntent =
  | { kind: "plan"; planKey: "micro" | "pro" | "premium"; planName: string; checkoutUrl: string }
  | { kind: "specialist"; checkoutUrl: string };

export const LEAD_OPEN_EVENT = "lead:open";

/** Opens the lead modal from any component (the modal listens for this event). */
export function openLeadModal(intent: LeadIntent): void {
  globalThis.dispatchEvent(new CustomEvent<LeadIntent>(LEAD_OPEN_EVENT, { detail: intent }));
}

export const CONSENT_OPEN_EVENT = "consent:open";

/** Re-opens the consent choice (the footer's privacy-preferences button); the consent banner listens. */
export function openConsentSettings(): void {
  globalThis.dispatchEvent(new CustomEvent(CONSENT_OPEN_EVENT));
}
