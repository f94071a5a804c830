// What every public page's bootstrap (site.ts) starts: UTM and touch capture, the visit beacon (also when the
// page comes back from the back/forward cache), the engagement beacon (visible time, sent on hide), re-sending
// leads that waited in the outbox, and the third-party scripts when configured and allowed.
import type { PublicConfig } from "../shared/page_data.ts";
import { captureTouch, captureUtm, trackEngagement, trackVisit } from "../browser_logic/tracking.ts";
import { flushLeadOutbox } from "../browser_logic/lead_outbox.ts";
import { hasThirdParties, thirdPartiesAllowed } from "../browser_logic/consent.ts";
import { whenIdle } from "./later.ts";

let started = false;

/** Starts tracking for a public page (once); `visit: false` for pages that are not a page view (the 404). */
export function startTracking(config: PublicConfig, { visit = true } = {}): void {
  if (started) return;
  started = true;
  captureUtm();
  if (visit) {
    // The touch, then the beacon, each in a task of its own: the first access to the session's storage opens
    // it (20–30 ms on a phone four times slower than a laptop), the beacon opens the visitor's storage and
    // sends the request; together, or with the page's start, they would block a tap for a moment. Timers run
    // in order, so the beacon always carries the touch.
    setTimeout(() => captureTouch());
    setTimeout(() => void trackVisit());
    addEventListener("pageshow", (event) => {
      if (event.persisted) void trackVisit();
    });
    // The page's visible time, sent when it is hidden (time on page, visit duration).
    trackEngagement();
  }
  // Loaded on demand: pages without a pixel or tag manager (or without consent) never download this code.
  const thirdParties = hasThirdParties(config) && thirdPartiesAllowed(config)
    ? import("../browser_logic/pixel.ts").then((m) => m.startThirdParties(config))
    : Promise.resolve();
  // A lead delivered from the outbox sends its pixel event too, so the pixel starts first.
  const flush = () => void thirdParties.catch(() => {}).then(() => flushLeadOutbox());
  whenIdle(flush);
}
