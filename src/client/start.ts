// What every public page's bootstrap (site.ts) starts: UTM and touch capture, the visit beacon (also when the
// page comes back from the back/forward cache), the engagement beacon (visible time, sent on hide), re-sending
// leads that waited in the outbox, and the third-party scripts when configured and allowed.
import type { PublicConfig } from "../shared/page_data.ts";
import { captureTouch, captureUtm, trackEngagement, trackVisit } from "../browser/tracking.ts";
import { flushLeadOutbox } from "../browser/lead_outbox.ts";
import { hasThirdParties, thirdPartiesAllowed } from "../browser/consent.ts";

let started = false;

/** Starts tracking for a public page (once); `visit: false` for pages that are not a page view (the 404). */
export function startTracking(config: PublicConfig, { visit = true } = {}): void {
  if (started) return;
  started = true;
  captureUtm();
  if (visit) {
    captureTouch();
    // The beacon in a task of its own: the storage above (its first access opens the session's storage) and
    // the request are each a short task on a slow phone, where together they would block input for a moment.
    setTimeout(() => void trackVisit());
    addEventListener("pageshow", (event) => {
      if (event.persisted) void trackVisit();
    });
    // The page's visible time, sent when it is hidden (time on page, visit duration).
    trackEngagement();
  }
  // Loaded on demand: pages without a pixel or tag manager (or without consent) never download this code.
  const thirdParties = hasThirdParties(config) && thirdPartiesAllowed(config)
    ? import("../browser/pixel.ts").then((m) => m.startThirdParties(config))
    : Promise.resolve();
  // A lead delivered from the outbox sends its pixel event too, so the pixel starts first.
  const flush = () => void thirdParties.catch(() => {}).then(() => flushLeadOutbox());
  if ("requestIdleCallback" in globalThis) requestIdleCallback(flush, { timeout: 2000 });
  else setTimeout(flush, 200);
}
