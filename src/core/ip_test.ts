import assert from "node:assert/strict";
import { clientNetwork, formatIp, inCidr, parseCidr, parseIp } from "./ip.ts";

Deno.test("ip: strict parsing of IPv4 and IPv6, nothing else", () => {
  for (
    const ok of [
      "203.0.113.7",
      "0.0.0.0",
      "::1",
      "2001:db8::1",
      "::ffff:10.0.0.1",
      "fe80::1:2:3:4",
      "1:2:3:4:5:6:7:8",
      "255.255.255.255",
      "10.0.0.10",
      "1.20.100.200",
    ]
  ) {
    assert.ok(parseIp(ok), ok);
  }
  for (
    const bad of [
      "aa",
      "::::",
      "",
      "1.2.3",
      "1.2.3.4.5",
      "256.1.1.1",
      "01.2.3.4",
      "1:2:3:4:5:6:7:8:9",
      "2001:db8::1::2",
      "[::1]",
      "::1%eth0",
      "1.2.3.4:80",
      " 1.2.3.4",
      "g::1",
      "1..2.3",
      ".1.2.3",
      "1.2.3.",
      "1.2.3.4.",
      "1.2.3.1000",
      "1.2.3.00",
      "1.2.-3.4",
      "1.2.3.4 ",
    ]
  ) {
    assert.equal(parseIp(bad), null, bad);
  }
  assert.equal(formatIp(parseIp("::ffff:10.0.0.1")!), "10.0.0.1");
  assert.deepEqual([...parseIp("1.20.100.200")!.bytes], [1, 20, 100, 200]);
  assert.equal(formatIp(parseIp("2001:DB8::1")!), "2001:db8:0:0:0:0:0:1");
});

Deno.test("ip: an IPv6 client counts as its /64, an IPv4 one as itself", () => {
  assert.equal(clientNetwork("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2:0:0:0:0/64");
  assert.equal(clientNetwork("2001:db8:1:2::ffff"), clientNetwork("2001:db8:1:2::1"));
  assert.equal(clientNetwork("203.0.113.7"), "203.0.113.7");
  assert.equal(clientNetwork("::ffff:203.0.113.7"), "203.0.113.7");
});

Deno.test("ip: CIDR membership", () => {
  const net = parseCidr("10.0.0.0/8")!;
  assert.ok(inCidr(parseIp("10.255.1.2")!, net));
  assert.ok(!inCidr(parseIp("11.0.0.1")!, net));
  assert.ok(inCidr(parseIp("2001:db8::5")!, parseCidr("2001:db8::/32")!));
  assert.ok(!inCidr(parseIp("2001:db9::5")!, parseCidr("2001:db8::/32")!));
  assert.ok(inCidr(parseIp("127.0.0.1")!, parseCidr("127.0.0.1")!));
  assert.ok(!inCidr(parseIp("::1")!, parseCidr("127.0.0.1")!));
  for (const bad of ["10.0.0.0/33", "10.0.0.0/", "x/8", "::/129", "10.0.0.0/8/1"]) {
    assert.equal(parseCidr(bad), null, bad);
  }
});
