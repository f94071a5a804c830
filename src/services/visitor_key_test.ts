import assert from "node:assert/strict";
import { monthSalt } from "../db/salts.ts";
import { dbTest } from "../testing/db.ts";
import { forgetSalts, linkMonths, monthIn, visitorKey } from "./visitor_key.ts";

dbTest("visitor key: HMAC-SHA256 of the IP with the month's salt, 32 hex characters", async (db) => {
  forgetSalts();
  const now = new Date("2026-11-20T15:00:00Z");
  const salt = await monthSalt(db, "2026-11");
  const key = await crypto.subtle.importKey(
    "raw",
    salt as Uint8Array<ArrayBuffer>,
    {
      name: "HMAC",
      hash: "SHA-256",
    },
    false,
    ["sign"],
  );
  for (const ip of ["203.0.113.7", "2001:db8::1", "10.0.0.1", "0.0.0.0"]) {
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(ip)));
    const expected = Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
    assert.equal(await visitorKey(db, ip, "America/Sao_Paulo", now), expected, ip);
  }
  assert.notEqual(
    await visitorKey(db, "203.0.113.7", "America/Sao_Paulo", new Date("2026-12-20T15:00:00Z")),
    await visitorKey(db, "203.0.113.7", "America/Sao_Paulo", now),
    "a new month, a new salt",
  );
  forgetSalts();
});

Deno.test("visitor key: the month is the calendar month in the analytics time zone", () => {
  assert.equal(monthIn(new Date("2026-12-01T02:30:00Z"), "America/Sao_Paulo"), "2026-11");
  assert.equal(monthIn(new Date("2026-12-01T02:30:00Z"), "UTC"), "2026-12");
});

Deno.test("visitor key: link months are the next months starting within 61 days of the local day", () => {
  assert.deepEqual(linkMonths("2026-11-03", "2026-11"), ["2026-12", "2027-01"]);
  assert.deepEqual(linkMonths("2026-11-30", "2026-11"), ["2026-12", "2027-01"]);
  assert.deepEqual(linkMonths("2026-10-15", "2026-10"), ["2026-11", "2026-12"]);
  assert.deepEqual(linkMonths("2026-10-01", "2026-10"), ["2026-11", "2026-12"]);
  assert.deepEqual(linkMonths("2026-09-30", "2026-09"), ["2026-10", "2026-11"]);
  // 31 January + 61 days = 2 April (February has 28 days): three months ahead.
  assert.deepEqual(linkMonths("2027-01-31", "2027-01"), ["2027-02", "2027-03", "2027-04"]);
});
