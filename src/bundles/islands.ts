// The island loader. The server renders every page whole; an island is a part that needs code in the browser,
// marked by <Island> (src/ui/Island.tsx) with its name, props and trigger. Its code is a separate chunk,
// imported when the trigger fires, and attached to the marker (its own root) alone.
//
// Per island, what runs and when (issue 16):
//
// | Island / behaviour        | How                                   | Loaded                                      |
// | ------------------------- | ------------------------------------- | ------------------------------------------- |
// | header: menu, dropdown,   | plain DOM (client/header.ts)          | bootstrap: first screen, must answer the    |
// |   language links          |                                       |   first tap with the documented timings     |
// | tooltips                  | plain DOM, delegated (tooltips.ts)    | bootstrap (700/300 ms from the first hover) |
// | FAQ                       | details/summary + `name` (single-open | no code needed; faq.ts (a toggle listener)  |
// |                           |   natively), faq.ts for older engines |   in the bootstrap                          |
// | click tracking, anchors   | data-track / data-anchor, one         | bootstrap                                   |
// |                           |   delegated listener (clicks.ts)      |                                             |
// | consent banner            | server-rendered hidden, plain DOM     | bootstrap (only pages with a pixel/GTM in   |
// |                           |   (consent_banner.ts)                 |   opt-in mode render it)                    |
// | pricing buttons           | links to /go/checkout or WhatsApp;    | bootstrap; a tap before it is held by the   |
// |                           |   lead.ts makes them buttons          |   inline handler (ui/early_tap.ts)          |
// | lead dialog               | server-rendered <dialog>, plain DOM   | plans near the screen or first touch        |
// |                           |   chunk (lead_dialog.ts), no React    |   anywhere (lead.ts)                        |
// | video facades             | island "video": plain DOM swaps in    | interaction with the poster; a click that   |
// |                           |   the player                          |   loaded it is replayed (islands/video.ts)  |
// | customer-logo fallback    | island "logos": plain DOM tiles       | visible (islands/logos.ts)                  |
// | Pipefy WhatsApp contact,  | a plain link + data-track             | nothing to load                             |
// |   CTAs, video cards       |                                       |                                             |

import { whenIdle } from "./later.ts";

export type IslandModule = {
  /** Attaches the island to its marker; `click` is the click that loaded it, to act on it now. */
  default: (root: HTMLElement, props: unknown, click?: Event) => void | Promise<void>;
};

const ISLANDS: Record<string, () => Promise<IslandModule>> = {
  video: () => import("./islands/video.ts"),
  logos: () => import("./islands/logos.ts"),
};

const started = new WeakMap<HTMLElement, Promise<void>>();
const attached = new WeakSet<HTMLElement>();
/** A click inside a marker whose code was still on its way: handed to the island when it attaches. */
const waitingClicks = new WeakMap<HTMLElement, Event>();

/** Loads and attaches one marker's island (once); resolves when it is running. */
function start(marker: HTMLElement): Promise<void> {
  let running = started.get(marker);
  if (!running) {
    const load = ISLANDS[marker.dataset.island ?? ""];
    if (!load) return Promise.resolve();
    const props = marker.dataset.props ? JSON.parse(marker.dataset.props) : undefined;
    running = load()
      .then((m) => {
        attached.add(marker);
        return m.default(marker, props, waitingClicks.get(marker));
      });
    started.set(marker, running);
  }
  return running;
}

/** Loads every island of this name on the page (a click handler that needs one now awaits this). */
export function loadIsland(name: string): Promise<void> {
  const markers = document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`);
  return Promise.all([...markers].map((m) => start(m))).then(() => {});
}

const INTERACTIONS = ["pointerover", "focusin", "touchstart", "click"] as const;

/** Finds the page's markers and arms each one's trigger. */
export function startIslands(): void {
  const markers = [...document.querySelectorAll<HTMLElement>("[data-island]")];
  const visible = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const marker = (entry.target as HTMLElement).closest<HTMLElement>("[data-island]");
      if (marker) void start(marker);
    }
  }, { rootMargin: "200px" });
  for (const marker of markers) {
    const when = marker.dataset.when;
    // The marker is `display: contents` (no box of its own): its children are what can be seen.
    if (when === "visible") { for (const child of marker.children) visible.observe(child); }
    else if (when === "idle") whenIdle(() => void start(marker), 3000, 1000);
  }
  // Interaction: the first pointer, focus, touch or click inside a marker, or on an element its
  // `data-triggers` selector names (a plan button for the lead modal).
  const interactive = markers.filter((m) => m.dataset.when === "interaction");
  if (!interactive.length) return;
  const onInteraction = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    for (const marker of interactive) {
      if (attached.has(marker)) continue;
      const inside = marker.contains(target);
      const triggers = marker.dataset.triggers;
      if (!inside && !(triggers && target.closest(triggers))) continue;
      // A hover may have started the load; the click that follows before the code arrives is not lost.
      if (inside && event.type === "click") waitingClicks.set(marker, event);
      void start(marker);
    }
  };
  for (const type of INTERACTIONS) {
    document.addEventListener(type, onInteraction, { capture: true, passive: true });
  }
}
