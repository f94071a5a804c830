// One delegated click listener for what the server wrote as data (src/ui/site/track.ts): analytics events
// (spec section 7) and links that scroll in place to an anchor of this page (spec section 9).
import { trackEvent } from "../browser/analytics.ts";
import { handleAnchorClick } from "./anchors.ts";

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
    const anchor = target?.closest<HTMLAnchorElement>("a[data-anchor]");
    if (anchor && !event.defaultPrevented) handleAnchorClick(event, anchor.href);
  });
}
