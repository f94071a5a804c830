// One delegated click listener for what the server wrote as data (src/ui/site/track.ts): analytics events
// (docs/PRODUCT.md, _What is tracked and when_), WhatsApp clicks and links that scroll in place to an anchor
// of this page (docs/PRODUCT.md, _Timings_).
import { trackEvent } from "../browser_logic/data_layer.ts";
import { randomId, trackWhatsappClick } from "../browser_logic/tracking.ts";
import { handleAnchorClick } from "./anchors.ts";

/**
 * What counts as a WhatsApp button: any link to wa.me or api.whatsapp.com (whoever adds it), a whatsapp: link,
 * or an element marked `data-whatsapp`. A pricing button (`data-lead`) that leads to WhatsApp after the lead
 * form is a plan click, not this.
 */
export const WHATSAPP_SELECTOR =
  'a[href*="//wa.me/"], a[href*="//api.whatsapp.com/"], a[href^="whatsapp:"], [data-whatsapp]';

/**
 * Meta's standard `Contact` event, browser side only. `fbq` exists only once src/browser_logic/pixel.ts started the
 * pixel (configured and, under CONSENT_MODE=opt-in, consented); that module is not imported here, so pages
 * without a pixel never load it. No server copy: the server sends Meta only what it can check against its own
 * records (a stored lead), and a click is nothing it can verify.
 */
function pixelContact(): void {
  const fbq = (globalThis as { fbq?: (...args: unknown[]) => void }).fbq;
  fbq?.("track", "Contact", {}, { eventID: `contact_${Date.now()}_${randomId(9)}` });
}

export function startClicks(): void {
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const tracked = target?.closest<HTMLElement>("[data-track]");
    if (tracked) {
      try {
        const [name, category, label] = JSON.parse(tracked.dataset.track ?? "");
        trackEvent(String(name), String(category), String(label));
      } catch {
        // A malformed attribute is a bug in the page, not a reason to break the click.
      }
    }
    const whatsapp = target?.closest(WHATSAPP_SELECTOR);
    if (whatsapp && !whatsapp.closest("[data-lead]")) {
      // Our own count first (a keepalive request, whatever the tag manager does), then Meta's standard event.
      void trackWhatsappClick();
      pixelContact();
      if (!tracked) trackEvent("whatsapp_click", "whatsapp", location.pathname);
    }
    const anchor = target?.closest<HTMLAnchorElement>("a[data-anchor]");
    if (anchor && !event.defaultPrevented) handleAnchorClick(event, anchor.href);
  });
}
