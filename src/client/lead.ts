// Pricing buttons: server-rendered as links to the checkout (or WhatsApp), which is where they lead without
// JavaScript. Here they become buttons that record the click at once (analytics event and click source,
// spec section 7), load the lead modal's island if it is not running yet, and open it.
import { trackEvent } from "../browser/analytics.ts";
import { trackClick } from "../browser/tracking.ts";
import { clickSource, type LeadIntent, openLeadModal } from "../ui/lead/lead_events.ts";
import { loadIsland } from "./islands.ts";

export function startLeadButtons(): void {
  for (const link of document.querySelectorAll("a[data-lead]")) link.setAttribute("role", "button");
  document.addEventListener("keydown", (event) => {
    // A button answers the space bar too.
    if (event.key !== " " || !(event.target instanceof HTMLAnchorElement)) return;
    if (!event.target.matches("a[data-lead]")) return;
    event.preventDefault();
    event.target.click();
  });
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("a[data-lead]") : null;
    if (!button) return;
    event.preventDefault();
    let intent: LeadIntent;
    try {
      intent = JSON.parse(button.dataset.lead ?? "");
    } catch {
      return;
    }
    if (intent.kind === "plan") trackEvent("pricing_plan_click", "pricing", intent.planKey);
    else trackEvent("pricing_specialist_click", "pricing", "specialist");
    void trackClick(clickSource(intent));
    void loadIsland("lead").then(() => openLeadModal(intent));
  });
}
