import type { Db } from "../db/client.ts";
import { existingMonthSalts, monthSalt } from "../db/salts.ts";
import { clientNetwork } from "../core/ip.ts";
import { addDays, LINK_WINDOW_DAYS, todayIn } from "../shared/analytics.ts";
import { type HmacKey, hmacKey as prepareKey, hmacSha256Hex } from "../core/hmac_sha256.ts";

// Building a DateTimeFormat costs far more than using one; one per time zone.
const monthFormats = new Map<string, Intl.DateTimeFormat>();

/** Calendar month ('2026-11') of an instant in a time zone. */
export function monthIn(date: Date, timeZone: string): string {
  let format = monthFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" });
    monthFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(date);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get("year")}-${get("month")}`;
}

const keys = new Map<string, Promise<HmacKey>>();

// The month only changes on a minute boundary (time zones are whole minutes off UTC): one lookup per minute.
let lastMonth = { minute: NaN, timeZone: "", month: "" };

function monthOfMinute(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (lastMonth.minute !== minute || lastMonth.timeZone !== timeZone) {
    lastMonth = { minute, timeZone, month: monthIn(now, timeZone) };
  }
  return lastMonth.month;
}

function hmacKey(db: Db, month: string): Promise<HmacKey> {
  let key = keys.get(month);
  if (!key) {
    key = monthSalt(db, month).then(prepareKey);
    key.catch(() => keys.delete(month)); // retry on the next call if the database was down
    keys.set(month, key);
    // The current month, up to three months ahead (link keys), and the previous one around midnight.
    if (keys.size > 6) keys.delete(keys.keys().next().value!);
  }
  return key;
}

/**
 * Pseudonymous visitor key: HMAC-SHA256(month salt, IP), hex, 32 characters; an IPv6 client is keyed on its
 * /64 (core/ip.ts), so one subscriber's network is one visitor and one rate-limit bucket. Exact within a
 * month; once the salt is destroyed nobody can link it back to an IP. The raw IP is never stored.
 */
export async function visitorKey(db: Db, ip: string, timeZone: string, now = new Date()): Promise<string> {
  const key = await hmacKey(db, monthOfMinute(now, timeZone));
  return hmacSha256Hex(key, clientNetwork(ip), 16);
}

/** The months after `month` ('2026-11') that start at most LINK_WINDOW_DAYS after the local day `day`. */
export function linkMonths(day: string, month: string): string[] {
  const last = addDays(day, LINK_WINDOW_DAYS).slice(0, 7);
  const months: string[] = [];
  let [y, m] = month.split("-").map(Number);
  for (;;) {
    if (++m > 12) [y, m] = [y + 1, 1];
    const next = `${y}-${String(m).padStart(2, "0")}`;
    if (next > last) return months;
    months.push(next);
  }
}

// Like the month, the local day changes on a minute boundary.
let lastLinkMonths = { minute: NaN, timeZone: "", months: [] as string[] };

/**
 * The address's keys under the salts of the next months that start within LINK_WINDOW_DAYS (one to three):
 * a visit stores them, so the roll-ups recognise the same address next month without ever storing it.
 */
export async function visitorLinkKeys(
  db: Db,
  ip: string,
  timeZone: string,
  now = new Date(),
): Promise<string[]> {
  const minute = Math.floor(now.getTime() / 60_000);
  if (lastLinkMonths.minute !== minute || lastLinkMonths.timeZone !== timeZone) {
    const months = linkMonths(todayIn(timeZone, now), monthOfMinute(now, timeZone));
    lastLinkMonths = { minute, timeZone, months };
  }
  const network = clientNetwork(ip);
  const out: string[] = [];
  for (const month of lastLinkMonths.months) out.push(hmacSha256Hex(await hmacKey(db, month), network, 16));
  return out;
}

/**
 * The address's keys in every month from the one of `since` to the one of `now`, for the months whose salt
 * still exists (a month's salt is destroyed 40 days after it ends): what finds its visits of that period.
 */
export async function visitorKeysSince(
  db: Db,
  ip: string,
  timeZone: string,
  since: Date,
  now: Date,
): Promise<string[]> {
  const months: string[] = [];
  const last = monthIn(now, timeZone);
  let [y, m] = monthIn(since, timeZone).split("-").map(Number);
  for (let month = monthIn(since, timeZone); month <= last;) {
    months.push(month);
    if (++m > 12) [y, m] = [y + 1, 1];
    month = `${y}-${String(m).padStart(2, "0")}`;
  }
  // The keys in use (cached) first, as visitorKey computes them; the others only if their salt still exists.
  const hmacs = await Promise.all(months.filter((m) => keys.has(m)).map((m) => keys.get(m)!));
  const stored = await existingMonthSalts(db, months.filter((m) => !keys.has(m)));
  for (const salt of stored.values()) hmacs.push(prepareKey(salt));
  return hmacs.map((key) => hmacSha256Hex(key, clientNetwork(ip), 16));
}

/** Forgets cached salts (tests that empty the database between runs, and the salt-destroying job). */
export function forgetSalts(): void {
  keys.clear();
}
