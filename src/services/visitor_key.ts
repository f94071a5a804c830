import type { Db } from "../db/client.ts";
import { monthSalt } from "../db/salts.ts";

/** Calendar month ('2026-11') of an instant in a time zone. */
export function monthIn(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" })
    .formatToParts(date);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get("year")}-${get("month")}`;
}

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(db: Db, month: string): Promise<CryptoKey> {
  let key = keys.get(month);
  if (!key) {
    key = monthSalt(db, month).then((salt) =>
      crypto.subtle.importKey(
        "raw",
        salt as Uint8Array<ArrayBuffer>,
        { name: "HMAC", hash: "SHA-256" },
        false,
        [
          "sign",
        ],
      )
    );
    key.catch(() => keys.delete(month)); // retry on the next call if the database was down
    keys.set(month, key);
    if (keys.size > 3) keys.delete(keys.keys().next().value!);
  }
  return key;
}

/**
 * Pseudonymous visitor key: HMAC-SHA256(month salt, IP), hex, 32 characters. Exact within a month; once the
 * salt is destroyed nobody can link it back to an IP. The raw IP is never stored.
 */
export async function visitorKey(db: Db, ip: string, timeZone: string, now = new Date()): Promise<string> {
  const key = await hmacKey(db, monthIn(now, timeZone));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(ip)));
  return Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Forgets cached salts (tests that empty the database between runs, and the salt-destroying job). */
export function forgetSalts(): void {
  keys.clear();
}
