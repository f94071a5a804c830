// 20 addresses from public ranges of Brazilian operators (and a few others) against the bundled country
// database; `-- --print` prints what was found (docs/AUDIENCE.md shows it).
import assert from "node:assert/strict";
import { BUNDLED_GEOIP_DB, countryCode, type GeoDb, geoDbFor, openGeoDb, placeOf } from "./geoip.ts";

const ADDRESSES: [string, string, string | null][] = [
  ["200.147.67.142", "UOL", "BR"],
  ["200.221.11.100", "UOL", "BR"],
  ["201.6.1.1", "Claro (NET)", "BR"],
  ["201.17.1.1", "Claro (NET Virtua)", "BR"],
  ["177.79.1.1", "Claro", "BR"],
  ["179.221.1.1", "Vivo", "BR"],
  ["189.40.1.1", "Vivo", "BR"],
  ["191.34.1.1", "Vivo", "BR"],
  ["186.205.1.1", "TIM", "BR"],
  ["187.72.1.1", "Algar/regional", "BR"],
  ["189.6.1.1", "Oi", "BR"],
  ["152.250.1.1", "Vivo (Telefônica)", "BR"],
  ["177.12.1.1", "regional ISP", "BR"],
  ["138.97.1.1", "regional ISP", "BR"],
  ["200.160.2.3", "NIC.br", "BR"],
  ["143.107.1.1", "USP (RNP)", "BR"],
  ["2804:14c::1", "Vivo IPv6", "BR"],
  ["2804:d41::1", "IPv6 ISP", "BR"],
  ["2804:7f0::1", "Claro IPv6", "BR"],
  ["2804:431::1", "IPv6 ISP", "BR"],
  ["8.8.8.8", "Google (US)", "US"],
  ["81.2.69.142", "UK ISP", "GB"],
  ["190.210.1.1", "Argentina", "AR"],
  ["2001:4860:4860::8888", "Google IPv6", "US"],
  ["127.0.0.1", "loopback", null],
  ["not an address", "garbage", null],
];

const bundled = (() => {
  try {
    Deno.statSync(BUNDLED_GEOIP_DB);
    return true;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "the bundled country database places addresses of Brazilian operators in Brazil",
  ignore: !bundled,
  fn() {
    const db = geoDbFor(undefined);
    assert.equal(db.path, BUNDLED_GEOIP_DB);
    const found = ADDRESSES.map(([ip, who]) => [ip, who, db.lookup(ip).country] as const);
    if (Deno.args.includes("--print")) {
      for (const [ip, who, c] of found) console.log(`| ${ip} | ${who} | ${c ?? "-"} |`);
    }
    assert.deepEqual(found.map((f) => f[2]), ADDRESSES.map((a) => a[2]));
    assert.ok(ADDRESSES.filter((a) => a[2] === "BR").length >= 20);
  },
});

Deno.test({
  name: "a record is decoded once: addresses it covers share one answer, past the cache of recent addresses",
  ignore: !bundled,
  fn() {
    const db = openGeoDb(BUNDLED_GEOIP_DB);
    // 177.32.0.0/12 is one Brazilian block; 1,500 addresses in it overflow the 1,000 recent ones kept.
    const places = Array.from({ length: 1_500 }, (_, i) => db.lookup(`177.32.${i >> 8}.${i & 255}`));
    assert.deepEqual(places[0], { country: "BR", region: null });
    assert.equal(new Set(places).size, 1);
  },
});

Deno.test('no database, a missing file or "off": every country unknown, never an error', () => {
  assert.deepEqual(openGeoDb(null).lookup("200.147.67.142"), { country: null, region: null });
  const missing = openGeoDb("/nonexistent/geo.mmdb");
  assert.equal(missing.path, null);
  assert.deepEqual(missing.lookup("200.147.67.142"), { country: null, region: null });
  assert.deepEqual(geoDbFor("off").lookup("8.8.8.8"), { country: null, region: null });
});

Deno.test("the country header wins when it names a country; the state only when both say Brazil", () => {
  const fake: GeoDb = { path: "fake", lookup: () => ({ country: "BR", region: "SP" }) };
  assert.deepEqual(placeOf(fake, "1.2.3.4", "br"), { country: "BR", region: "SP" });
  assert.deepEqual(placeOf(fake, "1.2.3.4", "PT"), { country: "PT", region: null });
  assert.deepEqual(placeOf(fake, "1.2.3.4", "XX"), { country: "BR", region: "SP" });
  assert.deepEqual(placeOf(fake, "1.2.3.4", undefined), { country: "BR", region: "SP" });
  assert.equal(countryCode("T1"), null);
  assert.equal(countryCode("usa"), null);
});
