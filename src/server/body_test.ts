// The body clock of server/body.ts, on a plain Deno.serve (as behind a proxy, CONNECTION_GUARD=0): a body that
// drips is answered 408 once its time is up, with or without a Content-Length; a body that arrives in time is read.
import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { HttpError } from "../core/errors.ts";
import { readJson } from "./body.ts";

const TIMEOUT_MS = 400;

function serve() {
  const app = new Hono();
  app.post(
    "/",
    async (c) =>
      c.json(await readJson(c, z.object({ a: z.string() }), { maxBytes: 1024, timeoutMs: TIMEOUT_MS })),
  );
  app.onError((error, c) =>
    error instanceof HttpError
      ? c.json(error.body ?? {}, error.status as 408)
      : c.json({ error: "internal" }, 500)
  );
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
}

/** Sends `head`, then one byte of `drip` every 150 ms; the status line, and how long it took to come. */
async function dripped(port: number, head: string, drip: string): Promise<{ status: string; ms: number }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const started = performance.now();
  await conn.write(new TextEncoder().encode(head));
  let stop = false;
  const writing = (async () => {
    for (const ch of drip) {
      if (stop) break;
      await new Promise((r) => setTimeout(r, 150));
      await conn.write(new TextEncoder().encode(ch)).catch(() => (stop = true));
    }
  })();
  const buf = new Uint8Array(4096);
  const n = await conn.read(buf);
  const ms = performance.now() - started;
  stop = true;
  await writing;
  conn.close();
  return { status: new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0], ms };
}

for (const [name, framing] of [["Content-Length", "length"], ["chunked", "chunked"]] as const) {
  Deno.test(`body: a dripping body (${name}) is answered 408 when its time is up`, async () => {
    const server = serve();
    try {
      const body = '{"a":"' + "x".repeat(40) + '"}';
      const head = framing === "length"
        ? `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
        : `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n`;
      const { status, ms } = await dripped(server.addr.port, head, framing === "length" ? body : "");
      assert.match(status, /^HTTP\/1\.1 408/);
      assert.ok(ms >= TIMEOUT_MS - 50 && ms < TIMEOUT_MS + 3_000, `answered after ${Math.round(ms)} ms`);
    } finally {
      await server.shutdown();
    }
  });
}

Deno.test("body: a body that arrives in time is read", async () => {
  const server = serve();
  try {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: "b" }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { a: "b" });
  } finally {
    await server.shutdown();
  }
});
