import { createHash, type Hash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { monthSalt } from "../db/salts.ts";

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

/**
 * HMAC-SHA256 with the key's inner and outer pads already hashed (RFC 2104): each message then costs two
 * SHA-256 continuations instead of a key import and an async sign, which dominated a tracking request.
 */
interface HmacState {
  inner: Hash;
  outer: Hash;
}

function hmacState(key: Uint8Array): HmacState {
  const block = new Uint8Array(64); // salts are 32 bytes, shorter than SHA-256's block
  block.set(key.byteLength > 64 ? createHash("sha256").update(key).digest() : key);
  const pad = (byte: number) => block.map((b) => b ^ byte);
  return { inner: createHash("sha256").update(pad(0x36)), outer: createHash("sha256").update(pad(0x5c)) };
}

function hmac(state: HmacState, message: string): Buffer {
  return state.outer.copy().update(state.inner.copy().update(message).digest()).digest();
}

const keys = new Map<string, Promise<HmacState>>();

// The month only changes on a minute boundary (time zones are whole minutes off UTC): one lookup per minute.
let lastMonth = { minute: NaN, timeZone: "", month: "" };

function monthOfMinute(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (lastMonth.minute !== minute || lastMonth.timeZone !== timeZone) {
    lastMonth = { minute, timeZone, month: monthIn(now, timeZone) };
  }
  return lastMonth.month;
}

function hmacKey(db: Db, month: string): Promise<HmacState> {
  let key = keys.get(month);
  if (!key) {
    key = monthSalt(db, month).then(hmacState);
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
  const key = await hmacKey(db, monthOfMinute(now, timeZone));
  return hmac(key, ip).toString("hex", 0, 16);
}

/** Forgets cached salts (tests that empty the database between runs, and the salt-destroying job). */
export function forgetSalts(): void {
  keys.clear();
}
