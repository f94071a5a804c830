import assert from "node:assert/strict";
import { monthSalt } from "../db/salts.ts";
import { dbTest } from "../../testing/db.ts";
import { forgetSalts, linkMonths, monthIn, visitorKey, visitorLinkKeys } from "./visitor_key.ts";

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
  const inputs = {
    "203.0.113.7": "203.0.113.7",
    "2001:db8::1": "2001:db8:0:0:0:0:0:0/64",
    "10.0.0.1": "10.0.0.1",
    "0.0.0.0": "0.0.0.0",
  };
  for (const [ip, input] of Object.entries(inputs)) {
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input)));
    const expected = Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
    assert.equal(await visitorKey(db, ip, "America/Sao_Paulo", now), expected, ip);
  }
  assert.notEqual(
    await visitorKey(db, "203.0.113.7", "America/Sao_Paulo", new Date("2026-12-20T15:00:00Z")),
    await visitorKey(db, "203.0.113.7", "America/Sao_Paulo", now),
    "a new month, a new salt",
  );
  // An IPv6 client is its /64: the host half is the subscriber's to change at will.
  const key6 = (ip: string) => visitorKey(db, ip, "America/Sao_Paulo", now);
  assert.equal(await key6("2001:db8:1:2::1"), await key6("2001:db8:1:2:ffff:ffff:ffff:fffe"));
  assert.notEqual(await key6("2001:db8:1:2::1"), await key6("2001:db8:1:3::1"));
  assert.equal(await key6("::ffff:203.0.113.7"), await key6("203.0.113.7"));
  // The link keys (next month's salts) key the same network: next month's visit from another address of the
  // /64 is recognised as the same visitor.
  const december = new Date("2026-12-20T15:00:00Z");
  const [link] = await visitorLinkKeys(db, "2001:db8:1:2::1", "America/Sao_Paulo", now);
  assert.equal(link, await visitorKey(db, "2001:db8:1:2:ffff::9", "America/Sao_Paulo", december));
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
