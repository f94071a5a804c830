/** What a pricing button asks for when it opens the lead modal (docs/PRODUCT.md, _Lead modal_). */
export type LeadIntent =
  | { kind: "plan"; planKey: "micro" | "pro" | "premium"; planName: string; checkoutUrl: string }
  | { kind: "specialist"; checkoutUrl: string };

/** `data-lead`: marks a pricing link as opening the lead modal with this intent (read by src/bundles/lead.ts). */
export function leadButton(intent: LeadIntent): { "data-lead": string } {
  return { "data-lead": JSON.stringify(intent) };
}

/**
 * Click source (docs/PRODUCT.md, _What is tracked and when_): `pricing_{plan key}_plan` or
 * `pricing_specialist_enterprise`.
 */
export function clickSource(intent: LeadIntent): string {
  return intent.kind === "plan" ? `pricing_${intent.planKey}_plan` : "pricing_specialist_enterprise";
}
