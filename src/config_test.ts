import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

Deno.test("config: defaults match the documented table", () => {
  const c = loadConfig({});
  assert.equal(c.PORT, 8000);
  assert.equal(c.HOST, "0.0.0.0");
  assert.equal(c.PUBLIC_ORIGIN, "http://localhost:8000");
  assert.equal(c.DATABASE_URL, undefined);
  assert.equal(c.DATA_DIR, "./data");
  assert.equal(c.ANALYTICS_TZ, "America/Sao_Paulo");
  assert.equal(c.TRUST_PROXY, false);
  assert.equal(c.COUNTRY_HEADER, "cf-ipcountry");
  assert.equal(c.CONSENT_MODE, "opt-in");
});

Deno.test("config: PUBLIC_ORIGIN follows PORT and loses a trailing slash", () => {
  assert.equal(loadConfig({ PORT: "9001" }).PUBLIC_ORIGIN, "http://localhost:9001");
  assert.equal(loadConfig({ PUBLIC_ORIGIN: "https://zap.example/" }).PUBLIC_ORIGIN, "https://zap.example");
});

Deno.test("config: empty strings mean unset", () => {
  assert.equal(loadConfig({ DATABASE_URL: "", PORT: "" }).PORT, 8000);
});

Deno.test("config: a bad value names the variable", () => {
  for (
    const [name, value] of [
      ["PORT", "eighty"],
      ["PORT", "70000"],
      ["ANALYTICS_TZ", "Mars/Olympus"],
      ["TRUST_PROXY", "yes"],
      ["DATABASE_URL", "mysql://x"],
      ["PUBLIC_ORIGIN", "ftp://x"],
    ]
  ) {
    assert.throws(
      () => loadConfig({ [name]: value }),
      (e: Error) => e instanceof ConfigError && e.message.includes(name),
    );
  }
});

Deno.test("config: TRUST_PROXY accepts 1 and true", () => {
  assert.equal(loadConfig({ TRUST_PROXY: "1" }).TRUST_PROXY, true);
  assert.equal(loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY, true);
  assert.equal(loadConfig({ TRUST_PROXY: "0" }).TRUST_PROXY, false);
});
