// Meta pixel and Google Tag Manager. Both load only when configured and allowed, after the page is
// interactive (idle callback), as async scripts: they never block rendering.
import type { PublicConfig } from "../shared/page_data.ts";
import { postJson, randomId } from "./tracking.ts";

type Fbq = ((...args: unknown[]) => void) & { queue?: unknown[][]; callMethod?: (...a: unknown[]) => void };
type W = typeof globalThis & { fbq?: Fbq; _fbq?: Fbq; dataLayer?: unknown[] };
const w = globalThis as W;

let pixelId: string | null = null;
let gtmStarted = false;

function addScript(src: string): void {
  const script = document.createElement("script");
  script.async = true;
  script.src = src;
  script.onerror = () => console.error("Third-party script failed to load:", src);
  document.head.appendChild(script);
}

function whenIdle(fn: () => void): void {
  const run =
    () => ("requestIdleCallback" in w ? w.requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 1));
  if (document.readyState === "complete") run();
  else addEventListener("load", run, { once: true });
}

/** Starts the pixel (PageView) when an id is configured; a missing id is logged and the page goes on. */
export function startPixel(id: string | null): void {
  if (!id) {
    console.info("Meta pixel not configured: not started.");
    return;
  }
  if (pixelId) return;
  pixelId = id;
  if (!w.fbq) {
    // The pixel's documented stub: calls are queued until fbevents.js arrives.
    const fbq: Fbq = (...args: unknown[]) => {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue!.push(args);
    };
    fbq.queue = [];
    Object.assign(fbq, { push: fbq, loaded: true, version: "2.0" });
    w.fbq = w._fbq = fbq;
  }
  w.fbq!("init", id);
  w.fbq!("track", "PageView");
  whenIdle(() => addScript("https://connect.facebook.net/en_US/fbevents.js"));
}

/** Starts the tag manager; no script at all without an id. */
export function startGtm(id: string | null): void {
  if (!id || gtmStarted) return;
  gtmStarted = true;
  w.dataLayer ??= [];
  w.dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
  const src = id.startsWith("GTM-")
    ? `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`
    : `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  whenIdle(() => addScript(src));
}

/** Starts whatever is configured. */
export function startThirdParties(config: PublicConfig): void {
  startPixel(config.metaPixelId);
  startGtm(config.gtmId);
}

/** True once the pixel runs (so events also go to Meta). */
export function pixelActive(): boolean {
  return pixelId !== null;
}

/**
 * Meta event id: lower-cased event name, a timestamp and a random string (docs/PRODUCT.md, _What is tracked
 * and when_).
 */
export function metaEventId(eventName: string): string {
  return `${eventName.toLowerCase()}_${Date.now()}_${randomId(9)}`;
}

/**
 * Sends an event with the pixel (eventID for deduplication) and to the server's Conversions API outbox
 * with the same id. Failures are logged with status and body, or 'Unknown error'.
 */
export async function sendMetaEvent(
  eventName: string,
  customData: Record<string, string | number>,
  eventId: string,
): Promise<void> {
  if (!pixelActive()) return;
  w.fbq?.("track", eventName, customData, { eventID: eventId });
  const res = await postJson("/api/meta/event", {
    eventName,
    eventSourceUrl: location.href.slice(0, 2000),
    customData,
    eventId,
  });
  const body = await res?.text().catch(() => "");
  if (res && !res.ok) console.error("Meta event failed:", res.status, body || "Unknown error");
}
