import type { Db } from "../db/client.ts";
import { existingMonthSalts, monthSalt } from "../db/salts.ts";
import { clientNetwork } from "../core/ip.ts";
import { addDays, LINK_WINDOW_DAYS, todayIn } from "../shared/dashboard_math.ts";
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

/**
 * Pseudonymous visitor keys over one database's month salts: HMAC-SHA256(month salt, IP), hex, 32
 * characters; an IPv6 client is keyed on its /64 (core/ip.ts), so one subscriber's network is one visitor and
 * one rate-limit bucket. Exact within a month; once the salt is destroyed nobody can link it back to an IP.
 * The raw IP is never stored. One per database (main.ts, or per app when none is given): the salts it
 * caches belong to that database and die with it.
 */
export class VisitorKeys {
  readonly #keys = new Map<string, Promise<HmacKey>>();
  // The month only changes on a minute boundary (time zones are whole minutes off UTC): one lookup per minute.
  #lastMonth = { minute: NaN, month: "" };
  // Like the month, the local day changes on a minute boundary.
  #lastLinkMonths = { minute: NaN, months: [] as string[] };

  constructor(readonly db: Db, readonly timeZone: string) {}

  #monthOfMinute(now: Date): string {
    const minute = Math.floor(now.getTime() / 60_000);
    if (this.#lastMonth.minute !== minute) this.#lastMonth = { minute, month: monthIn(now, this.timeZone) };
    return this.#lastMonth.month;
  }

  #hmacKey(month: string): Promise<HmacKey> {
    let key = this.#keys.get(month);
    if (!key) {
      key = monthSalt(this.db, month).then(prepareKey);
      key.catch(() => this.#keys.delete(month)); // retry on the next call if the database was down
      this.#keys.set(month, key);
      // The current month, up to three months ahead (link keys), and the previous one around midnight.
      if (this.#keys.size > 6) this.#keys.delete(this.#keys.keys().next().value!);
    }
    return key;
  }

  /** The address's key for the month of `now`. */
  async key(ip: string, now = new Date()): Promise<string> {
    const key = await this.#hmacKey(this.#monthOfMinute(now));
    return hmacSha256Hex(key, clientNetwork(ip), 16);
  }

  /**
   * The address's keys under the salts of the next months that start within LINK_WINDOW_DAYS (one to
   * three): a visit stores them, so the roll-ups recognise the same address next month without ever
   * storing it.
   */
  async linkKeys(ip: string, now = new Date()): Promise<string[]> {
    const minute = Math.floor(now.getTime() / 60_000);
    if (this.#lastLinkMonths.minute !== minute) {
      const months = linkMonths(todayIn(this.timeZone, now), this.#monthOfMinute(now));
      this.#lastLinkMonths = { minute, months };
    }
    const network = clientNetwork(ip);
    const out: string[] = [];
    for (const month of this.#lastLinkMonths.months) {
      out.push(hmacSha256Hex(await this.#hmacKey(month), network, 16));
    }
    return out;
  }

  /**
   * The address's keys in every month from the one of `since` to the one of `now`, for the months whose
   * salt still exists (a month's salt is destroyed 40 days after it ends): what finds its visits of that
   * period.
   */
  async keysSince(ip: string, since: Date, now: Date): Promise<string[]> {
    const months: string[] = [];
    const last = monthIn(now, this.timeZone);
    let [y, m] = monthIn(since, this.timeZone).split("-").map(Number);
    for (let month = monthIn(since, this.timeZone); month <= last;) {
      months.push(month);
      if (++m > 12) [y, m] = [y + 1, 1];
      month = `${y}-${String(m).padStart(2, "0")}`;
    }
    // The keys in use (cached) first, as key() computes them; the others only if their salt still exists.
    const cached = months.filter((m) => this.#keys.has(m));
    const hmacs = await Promise.all(cached.map((m) => this.#keys.get(m)!));
    const stored = await existingMonthSalts(this.db, months.filter((m) => !this.#keys.has(m)));
    for (const salt of stored.values()) hmacs.push(prepareKey(salt));
    return hmacs.map((key) => hmacSha256Hex(key, clientNetwork(ip), 16));
  }

  /** Forgets the cached salts (after the salt job destroyed some). */
  forget(): void {
    this.#keys.clear();
  }
}
