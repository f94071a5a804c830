import assert from "node:assert/strict";
import { monthSalt } from "../db/salts.ts";
import { dbKinds, dbTest, emptyDb } from "../../testing/db.ts";
import { openDb } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { linkMonths, monthIn, VisitorKeys } from "./visitor_key.ts";

dbTest("visitor key: HMAC-SHA256 of the IP with the month's salt, 32 hex characters", async (db) => {
  const keys = new VisitorKeys(db, "America/Sao_Paulo");
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
    assert.equal(await keys.key(ip, now), expected, ip);
  }
  assert.notEqual(
    await keys.key("203.0.113.7", new Date("2026-12-20T15:00:00Z")),
    await keys.key("203.0.113.7", now),
    "a new month, a new salt",
  );
  // An IPv6 client is its /64: the host half is the subscriber's to change at will.
  const key6 = (ip: string) => keys.key(ip, now);
  assert.equal(await key6("2001:db8:1:2::1"), await key6("2001:db8:1:2:ffff:ffff:ffff:fffe"));
  assert.notEqual(await key6("2001:db8:1:2::1"), await key6("2001:db8:1:3::1"));
  assert.equal(await key6("::ffff:203.0.113.7"), await key6("203.0.113.7"));
  // The link keys (next month's salts) key the same network: next month's visit from another address of the
  // /64 is recognised as the same visitor.
  const december = new Date("2026-12-20T15:00:00Z");
  const [link] = await keys.linkKeys("2001:db8:1:2::1", now);
  assert.equal(link, await keys.key("2001:db8:1:2:ffff::9", december));
});

Deno.test({
  name: "visitor key: two databases in one process each key with their own salt",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const now = new Date("2026-11-20T15:00:00Z");
    // The shared test database and a second one of this process's own (PostgreSQL when there is one).
    const a = await emptyDb("pglite");
    const b = dbKinds().includes("postgres") ? await emptyDb("postgres") : await openDb({});
    try {
      if (b.kind === "pglite") await migrate(b);
      const keysA = new VisitorKeys(a, "America/Sao_Paulo");
      const keysB = new VisitorKeys(b, "America/Sao_Paulo");
      const fromA = await keysA.key("203.0.113.7", now);
      const fromB = await keysB.key("203.0.113.7", now);
      // Each database drew its own random salt, and each key is made with its own database's salt.
      const salts = await Promise.all([a, b].map((db) => monthSalt(db, "2026-11")));
      assert.notDeepEqual(salts[0], salts[1]);
      assert.notEqual(fromA, fromB);
      assert.equal(await new VisitorKeys(a, "America/Sao_Paulo").key("203.0.113.7", now), fromA);
      assert.equal(await new VisitorKeys(b, "America/Sao_Paulo").key("203.0.113.7", now), fromB);
      // The cached salt stays with its database: a's keys do not change once b has been asked.
      assert.equal(await keysA.key("203.0.113.7", now), fromA);
    } finally {
      if (b.kind === "pglite") await b.close();
    }
  },
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
