// Issue 20: an upload the client abandons mid-body was logged as a 500 "unhandled error" with a stack and
// used up one of the client's 10 leads. Now it is one info line (client aborted, no stack) and counts nothing.
import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN } from "../../../testing/app.ts";
import { type LogLevel, logLevel, setLogLevel, setLogSink } from "../../core/log.ts";
import { serveGuarded } from "../../server/conn_guard.ts";

appTest(
  "leads: an aborted upload is logged as a client abort, without a stack, and uses no quota",
  async (t) => {
    const lines: Array<Record<string, unknown>> = [];
    const level = logLevel();
    setLogLevel("info");
    const restore = setLogSink((_l: LogLevel, line: string) => lines.push(JSON.parse(line)));
    // The real app behind the real listener, so the body really stops arriving.
    const server = await serveGuarded({ hostname: "127.0.0.1", port: 0, handler: t.app.fetch });
    try {
      for (let i = 0; i < 3; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
        await conn.write(new TextEncoder().encode(
          `POST /api/leads HTTP/1.1\r\nHost: localhost\r\nOrigin: ${TEST_ORIGIN}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":"Mar`,
        ));
        await new Promise((resolve) => setTimeout(resolve, 100));
        conn.close();
      }
      const deadline = Date.now() + 5_000;
      while (
        lines.filter((l) => l.msg === "client aborted the request").length < 3 && Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await server.shutdown();
      restore();
      setLogLevel(level);
    }
    const aborted = lines.filter((l) => l.msg === "client aborted the request");
    assert.equal(aborted.length, 3, JSON.stringify(lines));
    assert.ok(aborted.every((l) => l.level === "info" && !("stack" in l) && l.path === "/api/leads"));
    assert.ok(!lines.some((l) => l.level === "error"), JSON.stringify(lines));
    const requests = lines.filter((l) => l.msg === "request");
    assert.ok(requests.every((l) => l.status === 499), JSON.stringify(requests));
    const counted = await t.db.query("select 1 from rate_limits where bucket like 'leads:%'");
    assert.equal(counted.length, 0, "no lead quota used");
  },
);
