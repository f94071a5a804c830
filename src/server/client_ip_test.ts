import assert from "node:assert/strict";
import { forwardedClient } from "./client_ip.ts";
import { parseCidr } from "../core/ip.ts";
import { loadConfig } from "../config.ts";
import { appTest } from "../../testing/app.ts";

const trusted = ["10.0.0.0/8", "::1"].map((c) => parseCidr(c)!);

Deno.test("client ip: X-Forwarded-For is read from the right, past our own proxies, strictly", () => {
  assert.equal(forwardedClient("203.0.113.7", trusted), "203.0.113.7");
  assert.equal(
    forwardedClient("1.1.1.1, 203.0.113.7", trusted),
    "203.0.113.7",
    "left of our hop is the client's",
  );
  assert.equal(
    forwardedClient("203.0.113.7, 10.0.0.5", trusted),
    "203.0.113.7",
    "a CDN hop we trust is skipped",
  );
  assert.equal(forwardedClient("10.0.0.9, 10.0.0.5", trusted), "10.0.0.9", "all trusted: the left-most");
  assert.equal(forwardedClient("2001:DB8::1", trusted), "2001:db8:0:0:0:0:0:1");
  for (
    const bad of ["aa", "::", "0.0.0.0", "203.0.113.7:443", "[2001:db8::1]", "", "1.2.3.4, aa", "unknown"]
  ) {
    assert.equal(forwardedClient(bad, trusted), null, bad);
  }
});

Deno.test("client ip: TRUSTED_PROXIES is parsed strictly (loopback by default)", () => {
  const base = { PUBLIC_ORIGIN: "http://localhost:8000" };
  assert.equal(loadConfig(base).TRUSTED_PROXIES.length, 2);
  assert.equal(
    loadConfig({ ...base, TRUSTED_PROXIES: "172.16.0.0/12, 2001:db8::/32" }).TRUSTED_PROXIES.length,
    2,
  );
  assert.throws(
    () => loadConfig({ ...base, TRUSTED_PROXIES: "10.0.0.0/8,aa" }),
    /TRUSTED_PROXIES: not an address or CIDR: aa/,
  );
  assert.throws(() => loadConfig({ ...base, TRUSTED_PROXIES: "10.0.0.0/33" }), /TRUSTED_PROXIES/);
});

appTest(
  "client ip: a peer that is not a trusted proxy cannot pick its address with X-Forwarded-For",
  async (t) => {
    // The in-process peer (0.0.0.0) is not in TRUSTED_PROXIES: each forged address is the same client, so
    // the sixth failed login is refused whatever the header says.
    for (let i = 1; i <= 5; i++) {
      const res = await t.postJson("/api/admin/login", { email: "a@example.com", password: "wrong-pass" }, {
        "x-forwarded-for": `203.0.113.${i}`,
      });
      assert.equal(res.status, 401);
    }
    const sixth = await t.postJson("/api/admin/login", { email: "b@example.com", password: "wrong-pass" }, {
      "x-forwarded-for": "203.0.113.99",
    });
    assert.equal(sixth.status, 429);
  },
  { env: { TRUST_PROXY: "1", TRUSTED_PROXIES: "10.0.0.1" } },
);
