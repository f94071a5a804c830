import assert from "node:assert/strict";
import { Hono } from "hono";
import { appTest } from "../../../testing/app.ts";
import type { AppEnv } from "../env.ts";
import { errorHandler } from "../error_handler.ts";
import { type LogLevel, logLevel, setLogLevel, setLogSink } from "../../core/log.ts";
import { requestLog } from "./request_log.ts";

/** Runs `fn` with log lines captured (parsed) instead of printed. */
async function captureLogs(fn: () => Promise<void>): Promise<Array<Record<string, unknown>>> {
  const lines: Array<Record<string, unknown>> = [];
  const level = logLevel();
  setLogLevel("info");
  const restore = setLogSink((_level: LogLevel, line: string) => lines.push(JSON.parse(line)));
  try {
    await fn();
  } finally {
    restore();
    setLogLevel(level);
  }
  return lines;
}

function failingApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requestLog());
  app.get("/boom", () => {
    throw new Error("kaboom");
  });
  app.get("/fine", (c) => c.text("fine"));
  app.onError(errorHandler);
  return app;
}

appTest("request log: one JSON line per request with id, method, path, status and duration", async (t) => {
  let res: Response | undefined;
  const lines = await captureLogs(async () => {
    res = await t.request("/en", { headers: { "x-request-id": "abc-123" } });
    await res.body?.cancel();
  });
  assert.equal(res!.status, 200);
  assert.equal(res!.headers.get("x-request-id"), "abc-123");
  const requests = lines.filter((l) => l.msg === "request");
  assert.equal(requests.length, 1);
  const line = requests[0];
  assert.equal(line.level, "info");
  assert.equal(line.requestId, "abc-123");
  assert.equal(line.method, "GET");
  assert.equal(line.path, "/en");
  assert.equal(line.status, 200);
  assert.equal(typeof line.durationMs, "number");
  assert.ok(!Number.isNaN(Date.parse(String(line.time))));
});

appTest("request log: never writes the query string, the body or the client IP", async (t) => {
  const lines = await captureLogs(async () => {
    const res = await t.postJson("/api/leads?email=maria%40example.com&utm_source=newsletter", {
      name: "Maria Souza",
      email: "maria@example.com",
      whatsapp: "+55 11 98765-4321",
      plan: "pro",
    }, { "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.7" });
    await res.body?.cancel();
  });
  const text = lines.map((l) => JSON.stringify(l)).join("\n");
  assert.ok(lines.some((l) => l.msg === "request" && l.path === "/api/leads"), text);
  for (
    const secret of ["maria", "Maria", "example.com", "98765", "203.0.113.7", "newsletter", "utm_source"]
  ) {
    assert.ok(!text.includes(secret), `log contains ${secret}: ${text}`);
  }
});

Deno.test("request log: an unhandled error gives an error line with its stack and a 500 request line", async () => {
  const app = failingApp();
  let res: Response | undefined;
  const lines = await captureLogs(async () => {
    res = await app.request("/boom");
  });
  assert.equal(res!.status, 500);
  assert.match(res!.headers.get("content-type") ?? "", /application\/json/);
  const body = await res!.json();
  assert.equal(body.error, "internal");
  const error = lines.find((l) => l.msg === "unhandled error");
  assert.ok(error, JSON.stringify(lines));
  assert.equal(error.level, "error");
  assert.match(String(error.stack), /kaboom[\s\S]*request_log_test\.ts/);
  assert.equal(error.requestId, body.requestId);
  const request = lines.find((l) => l.msg === "request");
  assert.equal(request?.status, 500);
  assert.equal(request?.level, "error");
  assert.equal(request?.requestId, body.requestId);
});

Deno.test("request log: LOG_LEVEL=warn drops request lines but keeps errors", async () => {
  const app = failingApp();
  const lines = await captureLogs(async () => {
    setLogLevel("warn");
    assert.equal((await app.request("/fine")).status, 200);
    assert.equal((await app.request("/boom")).status, 500);
  });
  assert.deepEqual(lines.map((l) => [l.msg, l.status ?? null]), [["unhandled error", null], [
    "request",
    500,
  ]]);
});

Deno.test("request log: probes are not logged unless they fail", async () => {
  const app = new Hono<AppEnv>();
  app.use("*", requestLog());
  app.get("/healthz", (c) => c.text("ok"));
  app.get("/readyz", (c) => c.text("down", 503));
  const lines = await captureLogs(async () => {
    assert.equal((await app.request("/healthz")).status, 200);
    assert.equal((await app.request("/readyz")).status, 503);
  });
  assert.deepEqual(lines.map((l) => [l.path, l.status]), [["/readyz", 503]]);
});

appTest(
  "request log: a client's X-Request-Id is kept only when it is a short token of safe characters",
  async (t) => {
    for (
      const hostile of ["<script>alert(1)</script>", "a".repeat(65), "id with spaces", '{"json":1}', "ação"]
    ) {
      const res = await t.request("/en", { headers: { "x-request-id": hostile } });
      await res.body?.cancel();
      const id = res.headers.get("x-request-id") ?? "";
      assert.notEqual(id, hostile);
      assert.match(id, /^[0-9a-f-]{36}$/, hostile);
    }
  },
);
