// LGPD consent for the third-party scripts (Meta pixel, tag manager). First-party tracking sets no cookie
// and stores no IP, so it needs none. CONSENT_MODE=none keeps the plain behaviour: load when configured.
import type { PublicConfig } from "../shared/page_data.ts";

const CONSENT_KEY = "zapflow.consent";
export type ConsentChoice = "granted" | "denied";

/** The remembered choice, if any. */
export function storedConsent(): ConsentChoice | null {
  try {
    const v = globalThis.localStorage?.getItem(CONSENT_KEY);
    return v === "granted" || v === "denied" ? v : null;
  } catch {
    return null;
  }
}

/** Remembers the visitor's choice. */
export function storeConsent(choice: ConsentChoice): void {
  try {
    globalThis.localStorage?.setItem(CONSENT_KEY, choice);
  } catch {
    // not remembered: the banner shows again next time
  }
}

/** True when some third-party script is configured (otherwise there is nothing to ask about). */
export function hasThirdParties(config: PublicConfig): boolean {
  return Boolean(config.metaPixelId || config.gtmId);
}

/** True when the pixel and tag manager may load. */
export function thirdPartiesAllowed(config: PublicConfig): boolean {
  return config.consentMode === "none" || storedConsent() === "granted";
}
