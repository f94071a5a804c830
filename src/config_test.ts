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

Deno.test("config: CSP_EXTRA_SOURCES takes https origins, per directive or for all four", () => {
  assert.equal(loadConfig({}).CSP_EXTRA_SOURCES, undefined);
  const c = loadConfig({
    CSP_EXTRA_SOURCES: "https://www.googleadservices.com, img=https://*.doubleclick.net  " +
      "frame=https://td.doubleclick.net connect=HTTPS://Google.com/ https://www.googleadservices.com",
  });
  assert.deepEqual(c.CSP_EXTRA_SOURCES, {
    script: ["https://www.googleadservices.com"],
    img: ["https://www.googleadservices.com", "https://*.doubleclick.net"],
    connect: ["https://www.googleadservices.com", "https://google.com"],
    frame: ["https://www.googleadservices.com", "https://td.doubleclick.net"],
  });
});

Deno.test("config: CSP_EXTRA_SOURCES refuses anything but named https origins, naming the bad item", () => {
  for (
    const bad of [
      "http://ads.example.com",
      "https://ads.example.com/path",
      "'unsafe-inline'",
      "*",
      "https://*",
      "https:",
      "data:",
      "https://ads.example.com;script-src",
      "style=https://ads.example.com",
      "https://localhost",
    ]
  ) {
    assert.throws(
      () => loadConfig({ CSP_EXTRA_SOURCES: `https://ok.example.com ${bad}` }),
      (e: Error) =>
        e instanceof ConfigError && e.message.includes("CSP_EXTRA_SOURCES") && e.message.includes(bad),
      bad,
    );
  }
});

Deno.test("config: a half-configured lead destination stops the start, naming what is missing", () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return "";
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.message;
    }
  };
  assert.match(
    message({ LEAD_WEBHOOK_URL: "https://crm.example/hook" }),
    /LEAD_WEBHOOK_SECRET: required for webhook/,
  );
  const pipefy = message({ PIPEFY_TOKEN: "t0ken" });
  assert.match(pipefy, /PIPEFY_PIPE_ID: required for pipefy \(PIPEFY_TOKEN is set\)/);
  assert.match(pipefy, /PIPEFY_FIELDS: required for pipefy/);
  assert.match(message({ TRELLO_LIST_ID: "5f1e0c0ffee0c0ffee0c0ffe" }), /TRELLO_KEY: .*\n.*TRELLO_TOKEN: /);
  assert.match(
    message({ SMTP_URL: "smtp://mail:25", LEAD_NOTIFY_TO: "a@b.co" }),
    /LEAD_NOTIFY_FROM: required for email/,
  );
  assert.match(message({ LEAD_WEBHOOK_SECRET: "abc" }), /LEAD_WEBHOOK_SECRET: must be whsec_/);
  assert.match(message({ PIPEFY_FIELDS: "email:e_mail" }), /PIPEFY_FIELDS: must map name/);
  assert.match(
    message({ LEAD_NOTIFY_TO: "vendas@x.com, nope" }),
    /LEAD_NOTIFY_TO: must be one or more e-mail/,
  );
});

Deno.test("config: a complete destination is accepted and parsed", () => {
  const c = loadConfig({
    PIPEFY_TOKEN: "t0ken",
    PIPEFY_PIPE_ID: "301234567",
    PIPEFY_FIELDS: "name:nome, origin:origem",
    SMTP_URL: "smtps://vendas:s3nha@smtp.example.com:465",
    LEAD_NOTIFY_TO: "vendas@zapflow.com.br, dono@zapflow.com.br",
    LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
  });
  assert.deepEqual(c.PIPEFY_FIELDS, { name: "nome", origin: "origem" });
  assert.deepEqual(c.LEAD_NOTIFY_TO, ["vendas@zapflow.com.br", "dono@zapflow.com.br"]);
  assert.equal(c.PIPEFY_API_URL, "https://api.pipefy.com/graphql");
  assert.equal(c.TRELLO_API_URL, "https://api.trello.com");
});

Deno.test("config: ATTRIBUTION_DAYS is 30 by default, a whole number of days from 1 to 60", () => {
  assert.equal(loadConfig({}).ATTRIBUTION_DAYS, 30);
  assert.equal(loadConfig({ ATTRIBUTION_DAYS: "7" }).ATTRIBUTION_DAYS, 7);
  for (const bad of ["0", "61", "2.5", "abc"]) {
    assert.throws(() => loadConfig({ ATTRIBUTION_DAYS: bad }), (e) => {
      return e instanceof ConfigError && e.message.includes("ATTRIBUTION_DAYS");
    }, bad);
  }
});

Deno.test("config: CONNECTION_GUARD is on by default and may be off only behind a trusted proxy", () => {
  assert.equal(loadConfig({}).CONNECTION_GUARD, true);
  assert.equal(loadConfig({ CONNECTION_GUARD: "0", TRUST_PROXY: "1" }).CONNECTION_GUARD, false);
  assert.throws(() => loadConfig({ CONNECTION_GUARD: "0" }), /CONNECTION_GUARD: 0 needs TRUST_PROXY=1/);
  assert.throws(() => loadConfig({ CONNECTION_GUARD: "off", TRUST_PROXY: "1" }), /CONNECTION_GUARD/);
});

Deno.test("config: REPORT_TO takes plain addresses only, and needs SMTP", () => {
  const smtp = { SMTP_URL: "smtp://mail:25", LEAD_NOTIFY_TO: "vendas@x.com", LEAD_NOTIFY_FROM: "site@x.com" };
  assert.deepEqual(loadConfig({ ...smtp, REPORT_TO: " socio@x.com , mkt@x.com.br" }).REPORT_TO, [
    "socio@x.com",
    "mkt@x.com.br",
  ]);
  assert.equal(loadConfig(smtp).REPORT_TO, undefined);
  const refused = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };
  for (const bad of ["Sócio <socio@x.com>", "a@x.com?cc=b@evil.example", "a@x.com;b@x.com", "nope", ","]) {
    assert.match(
      refused({ ...smtp, REPORT_TO: bad }),
      /REPORT_TO: must be one or more plain e-mail addresses/,
      bad,
    );
  }
  assert.match(refused({ REPORT_TO: "socio@x.com" }), /REPORT_TO: needs SMTP_URL/);
});
