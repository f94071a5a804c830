// The LGPD consent banner (src/ui/lead/ConsentBanner.tsx, rendered hidden where the pixel or tag manager waits
// for a choice): shown while no choice is stored and from the footer's privacy-preferences button. What waits
// for consent: docs/PRODUCT.md, _What is tracked and when_.
import type { PublicConfig } from "../shared/page_data.ts";
import {
  type ConsentChoice,
  hasThirdParties,
  storeConsent,
  storedConsent,
} from "../browser_logic/consent.ts";

export function startConsentBanner(config: PublicConfig): void {
  const banner = document.querySelector<HTMLElement>(".consent-banner");
  if (!banner) return;
  if (config.consentMode === "opt-in" && hasThirdParties(config) && storedConsent() === null) {
    banner.hidden = false;
  }
  const choose = (choice: ConsentChoice) => {
    const before = storedConsent();
    storeConsent(choice);
    banner.hidden = true;
    if (choice === "granted") {
      void import("../browser_logic/pixel.ts").then((m) => m.startThirdParties(config));
    } // Scripts already running cannot be unloaded: a reload starts the page without them.
    else if (before === "granted" && "fbq" in globalThis) location.reload();
  };
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest("[data-consent-open]")) banner.hidden = false;
    const choice = target?.closest<HTMLElement>(".consent-banner [data-consent]")?.dataset.consent;
    if (choice === "granted" || choice === "denied") choose(choice);
  });
}
