// Builds Conversions API server events (Meta "Server Event Parameters"): hashing and normalisation rules
// from Meta's customer-information page; Brazilian numbers get the 55 country code Meta requires.

/** What the HTTP layer knows about the browser that caused an event (never stored beyond delivery). */
export interface MetaClient {
  ip: string;
  userAgent: string;
  cookies: { fbp?: string; fbc?: string };
}

export interface ServerEvent {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: "website";
  event_source_url?: string;
  user_data: Record<string, string | string[]>;
  custom_data?: Record<string, unknown>;
}

/** Lower-case hex SHA-256 of a string. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Meta's e-mail normalisation: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const CARRIER = "(?:1[245]|2[1-35]|31|4[13]|[56]5|99)";

/**
 * Digits with country code and no '+', as Meta matches phones; Brazilian numbers (DDD + 8 or 9 digits,
 * optionally dialled with a trunk 0 and carrier code) get 55. Null when it cannot be a phone number.
 */
export function normalizePhone(raw: string): string | null {
  const explicitPlus = raw.trim().startsWith("+");
  let d = raw.replace(/\D/g, "");
  if (explicitPlus) return d.length >= 8 && d.length <= 15 ? d : null;
  const trunk = d.match(new RegExp(`^0${CARRIER}(\\d{10,11})$`));
  if (trunk) d = trunk[1];
  d = d.replace(new RegExp(`^00${CARRIER}?(?=55\\d{10,11}$)`), "");
  d = d.replace(/^0+/, "");
  if (d.length === 10 || d.length === 11) return "55" + d;
  if ((d.length === 12 || d.length === 13) && d.startsWith("55")) return d;
  return null;
}

// fb.{subdomainIndex}.{creationTime}.{payload}[.{appendix}] — forwarded verbatim when it looks right.
const FB_COOKIE = /^fb\.\d\.\d{10,16}\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$/;

/**
 * A `_fbp`/`_fbc` value as the pixel writes it, not created in the future and, for a click id, within the
 * last 90 days (Meta's click window): anything else was made up, and is not forwarded under the site's pixel.
 */
export function plausibleFbCookie(
  value: string | undefined,
  now: Date,
  maxAgeDays = Infinity,
): value is string {
  if (!value || !FB_COOKIE.test(value)) return false;
  let created = Number(value.split(".")[2]);
  if (created < 1e12) created *= 1000; // seconds in some writers, milliseconds in the pixel's
  return created <= now.getTime() + 86_400_000 && created >= now.getTime() - maxAgeDays * 86_400_000;
}

/** The `_fbc` cookie, or one built from the `fbclid` of the page URL when the cookie is missing. */
export function clickId(cookie: string | undefined, pageUrl: string | undefined, now: Date): string | null {
  if (plausibleFbCookie(cookie, now, 90)) return cookie;
  if (!pageUrl) return null;
  try {
    const fbclid = new URL(pageUrl).searchParams.get("fbclid");
    if (fbclid && /^[A-Za-z0-9_-]{1,500}$/.test(fbclid)) return `fb.1.${now.getTime()}.${fbclid}`;
  } catch {
    // not a URL: no click id
  }
  return null;
}

export interface EventInput {
  eventName: string;
  eventId: string;
  eventSourceUrl?: string;
  customData?: Record<string, unknown>;
  /** For a lead: the e-mail and phone to match on (hashed here, never stored in clear). */
  email?: string;
  phone?: string;
}

/** One server event ready for the outbox: user data hashed where Meta requires it. */
export async function buildServerEvent(
  input: EventInput,
  client: MetaClient,
  now: Date,
): Promise<ServerEvent> {
  const user: Record<string, string | string[]> = {
    client_ip_address: client.ip,
    client_user_agent: client.userAgent,
  };
  if (plausibleFbCookie(client.cookies.fbp, now)) user.fbp = client.cookies.fbp;
  const fbc = clickId(client.cookies.fbc, input.eventSourceUrl, now);
  if (fbc) user.fbc = fbc;
  if (input.email) user.em = [await sha256Hex(normalizeEmail(input.email))];
  const phone = input.phone ? normalizePhone(input.phone) : null;
  if (phone) user.ph = [await sha256Hex(phone)];
  const event: ServerEvent = {
    event_name: input.eventName,
    event_time: Math.floor(now.getTime() / 1000),
    event_id: input.eventId,
    action_source: "website",
    user_data: user,
  };
  if (input.eventSourceUrl) event.event_source_url = input.eventSourceUrl;
  if (input.customData && Object.keys(input.customData).length) event.custom_data = input.customData;
  return event;
}
