// The real process, with and without the connection guard: by default the guard stands in front and closes
// a connection that sends nothing within 5 s; with CONNECTION_GUARD=0 behind a trusted proxy, Deno.serve
// answers on the socket directly. Both serve an HTTP/2 client with prior knowledge, as a proxy's upstream may.
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../testing/server.ts";
import { copyDataDir } from "../testing/db_template.ts";

/** Milliseconds until the server closes a connection that sends nothing (the test fails after 60 s). */
async function silentConnectionLasts(url: string): Promise<number> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const hang = setTimeout(() => conn.close(), 60_000);
  try {
    await conn.read(new Uint8Array(16)).catch(() => null);
    return Date.now() - started;
  } finally {
    clearTimeout(hang);
    try {
      conn.close();
    } catch { /* closed already */ }
  }
}

for (const guarded of [true, false]) {
  Deno.test({
    name: guarded
      ? "main: the connection guard stands in front by default: a silent connection is closed after 5 s"
      : "main: CONNECTION_GUARD=0 behind a trusted proxy serves plainly with Deno.serve",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "main_guard_" });
      await copyDataDir(join(dir, "data")); // a migrated DATA_DIR: no initdb, nothing to migrate
      const server = await startServer({
        timeoutMs: 240_000, // a PGlite start on a loaded machine
        env: {
          DATA_DIR: join(dir, "data"),
          LOG_LEVEL: "info",
          ...(guarded ? {} : { CONNECTION_GUARD: "0", TRUST_PROXY: "1" }),
        },
      });
      const client = Deno.createHttpClient({ http1: false, http2: true });
      try {
        const h2 = await fetch(`${server.url}/healthz`, { client }).then((res) => res.status, () => 0);
        assert.equal(h2, 200);
        if (guarded) {
          const lasted = await silentConnectionLasts(server.url);
          assert.ok(lasted >= 5_000 && lasted < 60_000, `a silent connection lasted ${lasted} ms`);
          assert.match(server.output(), /"msg":"connection guard","fdBudget":\d+/);
        } else {
          assert.match(server.output(), /connection guard off/);
        }
        const res = await fetch(`${server.url}/healthz`);
        assert.equal(res.status, 200);
        await res.body?.cancel();
      } finally {
        client.close();
        assert.equal(await server.stop(), 0, server.output());
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  });
}
