// The real process, with and without the connection guard: by default the public socket speaks HTTP/1.x only
// (the HTTP/2 preface gets 505 and is closed); with CONNECTION_GUARD=0 behind a trusted proxy, Deno.serve
// answers on it directly (an HTTP/2 client with prior knowledge is served, as a proxy's upstream may be).
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../testing/server.ts";
import { copyDataDir } from "../testing/db_template.ts";

const PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * What the server answers to the HTTP/2 preface on a new connection, read until it closes the connection:
 * the guard closes it after its answer, so no time window decides what counts as the answer.
 */
async function prefaceAnswer(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  // Only against a hang (a guard that never closes): the test fails, it does not read a partial answer.
  const hang = setTimeout(() => conn.close(), 60_000);
  try {
    await conn.write(PREFACE);
    const answer = new Response(conn.readable);
    return new TextDecoder("latin1").decode(await answer.arrayBuffer());
  } finally {
    clearTimeout(hang);
    try {
      conn.close();
    } catch { /* closed when its stream ended */ }
  }
}

for (const guarded of [true, false]) {
  Deno.test({
    name: guarded
      ? "main: the connection guard stands in front by default: the HTTP/2 preface gets 505"
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
        if (guarded) {
          assert.match(await prefaceAnswer(server.url), /^HTTP\/1\.1 505 /);
          assert.equal(h2, 0);
          assert.match(server.output(), /"msg":"connection guard","fdBudget":\d+/);
        } else {
          assert.equal(h2, 200);
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
