// First-party tracking: session id, UTM and touch capture, and the visit/click/conversion beacons. No cookie
// is set and nothing identifies the visitor (the server keys visitors by a monthly-salted hash).
import { CLICK_IDS, type ClickId } from "../shared/click_ids.ts";
import { MAX_ENGAGED_MS } from "../shared/engagement_limits.ts";
import { originOf, withOrigin } from "../shared/checkout_origin.ts";

const SESSION_KEY = "zapflow.sessionId";
const UTM_KEY = "zapflow.utm";
const TOUCH_KEY = "zapflow.touch";
const UTM_FIELDS = ["utm_source", "utm_campaign", "utm_medium", "utm_term", "utm_content"] as const;

export type StoredUtm = Partial<Record<typeof UTM_FIELDS[number], string>>;

function session(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage disabled
  }
}

/** Keeps a value for the session; a full or disabled storage is ignored (each caller says what then). */
function keep(key: string, value: string): void {
  try {
    session()?.setItem(key, value);
  } catch {
    // quota or disabled
  }
}

/** A stored JSON value; null when absent or unreadable. */
function kept(key: string) {
  try {
    return JSON.parse(session()?.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** A random string of base-36 characters. */
export function randomId(length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

/** The browser session's id (time plus random), created once per session. */
export function sessionId(): string {
  const store = session();
  let id = store?.getItem(SESSION_KEY) ?? "";
  if (!/^[\w.:-]{1,100}$/.test(id)) {
    id = `${Date.now()}-${randomId(10)}`;
    keep(SESSION_KEY, id); // if it cannot be kept, a fresh id per page is the best we can do
  }
  return id;
}

/** Stores the landing URL's UTM parameters when any `utm_*` is present (a new campaign replaces the old). */
export function captureUtm(search = location.search): void {
  const params = new URLSearchParams(search);
  if (!UTM_FIELDS.some((f) => params.get(f))) return;
  const utm: StoredUtm = {};
  for (const f of UTM_FIELDS) {
    const v = params.get(f)?.trim().slice(0, 200);
    if (v) utm[f] = v;
  }
  keep(UTM_KEY, JSON.stringify(utm)); // if it cannot be kept, UTM simply stays empty
}

/**
 * The stored UTM parameters; anything unreadable counts as empty (docs/PRODUCT.md, _What is tracked and
 * when_).
 */
export function storedUtm(): StoredUtm {
  const value = kept(UTM_KEY);
  const utm: StoredUtm = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return utm;
  for (const f of UTM_FIELDS) if (typeof value[f] === "string" && value[f]) utm[f] = value[f];
  return utm;
}

/** How the session arrived: another site's host, the landing URL's click ids (flags only), its first page. */
export interface StoredTouch {
  referrer: string | null;
  clickIds: Partial<Record<ClickId, true>>;
  landingPage: string;
}

/**
 * The referring host when it is another site (an Android app refers as android-app://package): else null.
 * `ownHost` is lower-case, as location.hostname always is.
 */
export function externalReferrer(referrer: string, ownHost: string): string | null {
  try {
    // file:, about: and the like have no host name; IPv6 literals are not worth a source.
    // (The URL parser lower-cases http(s) host names; the server lower-cases the rest.)
    const host = new URL(referrer).hostname;
    return /^[\w.-]+$/.test(host) &&
        host.replace(/^www\./, "") !== ownHost.replace(/^www\./, "")
      ? host
      : null;
  } catch {
    return null;
  }
}

let entryPending = false;

/**
 * Keeps the session's touch: taken on its first page, and again when the visitor arrives anew from another
 * site, a campaign link or an ad click (as GA4 starts a new session). The page that takes it is an entry
 * (landing) page; a reload of it is not a new one.
 */
export function captureTouch(
  search = location.search,
  path = location.pathname,
  referrer = document.referrer,
  ownHost = location.hostname,
): void {
  const params = new URLSearchParams(search);
  const has = (name: string) => params.get(name);
  const ids = CLICK_IDS.filter(has);
  const touch: StoredTouch = {
    referrer: externalReferrer(referrer, ownHost),
    clickIds: Object.fromEntries(ids.map((id) => [id, true])),
    landingPage: (path + search).slice(0, 2000),
  };
  const json = JSON.stringify(touch);
  const stored = session()?.getItem(TOUCH_KEY);
  if (stored && (stored === json || !(touch.referrer || ids.length || UTM_FIELDS.some(has)))) return;
  entryPending = true;
  keep(TOUCH_KEY, json); // if it cannot be kept, every page is its own entry
}

/** The session's stored touch; null when none or unreadable (the server checks what it is sent). */
export function storedTouch(): StoredTouch | null {
  const touch = kept(TOUCH_KEY);
  return typeof touch?.landingPage === "string" ? touch : null;
}

/**
 * Appends the visit's origin to a checkout link: the stored UTM parameters (source, medium and campaign, plus
 * utm_content and utm_term when the landing URL had them) and the ad click ids of the session's landing URL.
 * An invalid URL gives back the link unchanged.
 */
export function withUtm(link: string): string {
  const landing = storedTouch()?.landingPage ?? "";
  const query = landing.includes("?") ? landing.slice(landing.indexOf("?")) : "";
  return withOrigin(link, { ...originOf(query), ...storedUtm() });
}

/**
 * Error text as docs/PRODUCT.md, _Errors_ words it: status, colon, body (or status text / 'Unknown error').
 */
export async function describeFailure(res: Response | null, error?: unknown): Promise<string> {
  if (!res) return error instanceof Error ? error.message : "Unknown error";
  const body = await res.text().catch(() => "");
  return `${res.status}: ${body || res.statusText || "Unknown error"}`;
}

/** POSTs JSON to our own API (keepalive: survives a navigation when asked). Never throws. */
export async function postJson(path: string, body: unknown, keepalive = false): Promise<Response | null> {
  try {
    return await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      keepalive,
    });
  } catch (error) {
    console.error(`${path} failed:`, await describeFailure(null, error));
    return null;
  }
}

async function beacon(path: string, body: Record<string, unknown>): Promise<void> {
  const res = await postJson(path, body, true);
  if (res && !res.ok) console.error(`${path} failed:`, await describeFailure(res));
  else await res?.arrayBuffer().catch(() => {}); // an unread body counts as an aborted request
}

/** Who a click or conversion belongs to: the session and its UTM origin. */
export interface TrackingOrigin {
  sessionId: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  /** The session's referring host (another site's), if any. */
  referrer?: string | null;
  /** The click ids on the session's landing URL, as flags. */
  clickIds?: StoredTouch["clickIds"] | null;
}

/** This browser session and its stored UTM origin and touch. */
export function currentOrigin(): TrackingOrigin {
  const utm = storedUtm();
  const touch = storedTouch();
  return {
    sessionId: sessionId(),
    utmSource: utm.utm_source ?? null,
    utmCampaign: utm.utm_campaign ?? null,
    utmMedium: utm.utm_medium ?? null,
    referrer: touch?.referrer,
    clickIds: touch?.clickIds,
  };
}

function common(source: string) {
  return { source, ...currentOrigin() };
}

/** The page as its page view names it: path plus query. */
function currentPage(): string {
  return (location.pathname + location.search).slice(0, 2000);
}

/**
 * Measures the page's visible time and, each time the page is hidden (another tab, the phone locked, a
 * navigation away), sends the visible time since the previous beacon with sendBeacon: one beacon per hide,
 * hidden time never counted. `now` is a monotonic clock in ms.
 */
export function trackEngagement(now: () => number = () => performance.now()): void {
  let visibleSince: number | null = document.visibilityState === "visible" ? now() : null;
  let unsent = 0;
  const send = () => {
    if (visibleSince !== null) unsent += now() - visibleSince;
    visibleSince = null;
    const engagedMs = Math.min(Math.round(unsent), MAX_ENGAGED_MS);
    if (engagedMs < 1) return;
    const body = JSON.stringify({ source: currentPage(), sessionId: sessionId(), engagedMs });
    // A string body goes as text/plain (no preflight); when the browser refuses to queue it, the time waits
    // for the next hide.
    if (navigator.sendBeacon?.("/api/tracking/engagement", body)) unsent = 0;
  };
  addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") send();
    else visibleSince ??= now();
  });
  addEventListener("pagehide", send);
  // Back from the back/forward cache: visible again, and a page view again (start.ts).
  addEventListener("pageshow", (event) => {
    if (event.persisted && document.visibilityState === "visible") visibleSince ??= now();
  });
}

/** Records a page view: path plus query, session id, the five UTM fields and the session's touch. */
export function trackVisit(): Promise<void> {
  const utm = storedUtm();
  const entry = entryPending;
  entryPending = false;
  return beacon("/api/tracking/visit", {
    ...common(currentPage()),
    utmTerm: utm.utm_term ?? null,
    utmContent: utm.utm_content ?? null,
    entry,
  });
}

/** Records a pricing-button click (the modal opened). Failures are only logged. */
export function trackClick(source: string): Promise<void> {
  return beacon("/api/tracking/click", common(source));
}

/**
 * Records a click on a WhatsApp button or link of this page (kind `whatsapp`, source: the page's path). A
 * keepalive request: it is not delayed by, nor lost to, the navigation to WhatsApp. Failures are only logged.
 */
export function trackWhatsappClick(): Promise<void> {
  return beacon("/api/tracking/click", { ...common(location.pathname.slice(0, 2000)), kind: "whatsapp" });
}

/**
 * Records a submitted lead form, for the session and origin it was submitted in (a lead delivered later
 * from the outbox keeps its own). Failures are only logged.
 */
export function trackConversion(source: string, origin: TrackingOrigin = currentOrigin()): Promise<void> {
  return beacon("/api/tracking/conversion", { source, ...origin });
}
