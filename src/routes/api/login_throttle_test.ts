// Issue 20: parallel guesses cannot outrun the sign-in throttle, and an attack on the account does not lock
// out the administrator's own browser. "Checked" = answered 401 (the password was verified and was wrong);
// 429 means it was not even checked.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, seedAdmin } from "../../../testing/admin.ts";

const clock = new Date("2026-11-10T12:00:00Z");
const options = { now: () => clock, env: { TRUST_PROXY: "1" } };
const from = (n: number) => ({ "x-forwarded-for": `198.51.${Math.floor(n / 250)}.${n % 250 + 1}` });

async function guesses(t: TestApp, count: number, client: (i: number) => Record<string, string>) {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await t.postJson(
        "/api/admin/login",
        { email: ADMIN_EMAIL, password: `guess-${i}` },
        client(i),
      );
      await res.body?.cancel();
      return res.status;
    }),
  );
  const tally = (s: number) => statuses.filter((x) => x === s).length;
  return {
    checked: tally(401),
    refused: tally(429),
    other: count - tally(401) - tally(429),
    ms: performance.now() - started,
  };
}

function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

appTest("login throttle: 200 parallel guesses from one client check at most 5 passwords", async (t, kind) => {
  await seedAdmin(t.db);
  const r = await guesses(t, 200, () => from(7));
  console.log(
    `200 parallel guesses from one client (${kind}): ${r.checked} checked, ${r.refused} got 429, ${r.other} other, ${
      Math.round(r.ms)
    } ms; load average ${load()}`,
  );
  assert.equal(r.checked, 5);
  assert.equal(r.refused, 195);
}, options);

appTest(
  "login throttle: 400 parallel guesses from 400 clients check at most 10 passwords",
  async (t, kind) => {
    await seedAdmin(t.db);
    const r = await guesses(t, 400, from);
    console.log(
      `400 parallel guesses from 400 clients (${kind}): ${r.checked} checked, ${r.refused} got 429, ${r.other} other, ${
        Math.round(r.ms)
      } ms; load average ${load()}`,
    );
    assert.equal(r.checked, 10);
    assert.equal(r.refused, 390);
  },
  options,
);

appTest(
  "login throttle: the administrator's known browser signs in during an account-wide attack",
  async (t) => {
    await seedAdmin(t.db);
    // The administrator signed in from this browser before: it holds a device cookie.
    const first = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      from(500),
    );
    assert.equal(first.status, 200);
    const device = first.headers.getSetCookie().find((c) => c.startsWith("admin_device="))!;
    assert.match(device, /HttpOnly/);
    const deviceCookie = device.split(";")[0];
    // The attack: 400 parallel guesses from 400 addresses, then more.
    await guesses(t, 400, from);
    const unknown = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      from(501),
    );
    assert.equal(unknown.status, 429, "an unknown browser waits");
    // The known browser, even from a new address, is not slowed down.
    const known = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { ...from(502), cookie: deviceCookie },
    );
    assert.equal(known.status, 200);
    // A stolen or guessed device cookie only gets its own 5 failures.
    const forged = await guesses(t, 20, () => ({ ...from(503), cookie: deviceCookie }));
    assert.equal(forged.checked, 5);
    const afterForged = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { ...from(504), cookie: deviceCookie },
    );
    assert.equal(afterForged.status, 429);
    // A made-up token is just an unknown browser.
    const madeUp = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { ...from(505), cookie: "admin_device=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
    );
    assert.equal(madeUp.status, 429);
  },
  options,
);
