// The bootstrap of every public page (entries/site.ts): no React, no i18next. It starts tracking (UTM, visit
// beacon, outbox flush, consent-gated third parties), the page's plain-DOM behaviours and the island loader.
import { PAGE_DATA_ID, type PageData } from "../shared/page_data.ts";
import { startTracking } from "./start.ts";
import { startHeader } from "./header.ts";
import { startTooltips } from "./tooltips.ts";
import { startFaq } from "./faq.ts";
import { startClicks } from "./clicks.ts";
import { startConsentBanner } from "./consent_banner.ts";
import { answerEarlyTap, startLeadButtons } from "./lead.ts";
import { startIslands } from "./islands.ts";
import { startPhoneBar } from "./phone_bar.ts";

/** Reads the data the server embedded in the page. */
function readPageData(): PageData {
  try {
    return JSON.parse(document.getElementById(PAGE_DATA_ID)?.textContent ?? "{}") as PageData;
  } catch {
    return {} as PageData;
  }
}

export function startSite(): void {
  const data = readPageData();
  // Click handlers first: tracking and anchors run before the other listeners of the same click.
  startClicks();
  startHeader();
  startTooltips();
  startFaq();
  startLeadButtons();
  startConsentBanner(data.config);
  startPhoneBar();
  startIslands();
  // A legal page always opens at its top: the browser does not restore an earlier scroll position there
  // (no scrollTo, which would force a layout while the page loads).
  if (document.querySelector("[data-scroll-top]")) history.scrollRestoration = "manual";
  // Tracking (storage reads, the visit beacon) runs in a task of its own: it is the bootstrap's costliest part
  // (about 10 ms on a fast machine, four times that on a mid-range phone) and would otherwise lengthen the task
  // that makes the page answer its first tap. The page's listeners are all in place already.
  setTimeout(() => {
    startTracking(data.config, { visit: data.visit !== false });
    answerEarlyTap(); // a plan tap that came before this script, now with the visit's origin taken
    // Tests and tools wait for this: every behaviour of the page answers from here on.
    document.documentElement.dataset.hydrated = "true";
  });
}
