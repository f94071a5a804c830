// Fault: SIGTERM while a client never finishes sending a request's body. The process must still exit 0 within
// 10 s: the connection guard cuts the stalled request, or the drain limit (src/main.ts) ends the wait. (Under
// load: src/main_sigterm_test.ts; a file of its own so that `deno task test:faults` runs the two side by side.)
import assert from "node:assert/strict";
import { join } from "node:path";
import { LOAD_ORIGIN } from "../testing/load.ts";
import { startServer } from "../testing/server.ts";
import { copyDataDir } from "../testing/db_template.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name:
    "faults: SIGTERM while a client never finishes sending its body — the process still exits within 10 s",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "sigterm_slow_" });
    try {
      await copyDataDir(join(dir, "data")); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
      const server = await startServer({
        env: { PUBLIC_ORIGIN: LOAD_ORIGIN, LOG_LEVEL: "warn", DATA_DIR: join(dir, "data") },
      });
      const { port } = new URL(server.url);
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
      // Headers announce 200 bytes; only 10 arrive, and the connection stays open.
      await conn.write(new TextEncoder().encode(
        `POST /api/leads HTTP/1.1\r\nHost: localhost\r\nOrigin: ${LOAD_ORIGIN}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"name":"S`,
      ));
      await sleep(300);
      const signalledAt = Date.now();
      const code = await server.stop();
      const exitMs = Date.now() - signalledAt;
      conn.close();
      console.log(`sigterm with a stalled request: exit code ${code} after ${exitMs} ms`);
      assert.equal(code, 0, server.output().slice(-3000));
      assert.ok(exitMs < 10_000, `exit took ${exitMs} ms`);
      // Either the connection guard cut the stalled request or the drain limit ended the wait.
      assert.doesNotMatch(server.output(), /shutdown took too long/);
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
