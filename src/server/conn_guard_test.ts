import assert from "node:assert/strict";
import { contentLength, fdBudgetFor, type GuardLimits, headerEnd, serveGuarded } from "./conn_guard.ts";

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const FAST: Partial<GuardLimits> = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveMs: 300,
  maxHeaderBytes: 4096,
};

async function withGuard(
  limits: Partial<GuardLimits>,
  fn: (port: number, guard: Awaited<ReturnType<typeof serveGuarded>>) => Promise<void>,
) {
  const guard = await serveGuarded({
    hostname: "127.0.0.1",
    port: 0,
    limits,
    handler: async (request, info) => {
      const body = request.method === "POST" ? await request.text().catch(() => "") : "";
      return Response.json({ address: info.remoteAddr.hostname, port: info.remoteAddr.port, body });
    },
  });
  try {
    await fn(guard.addr.port, guard);
  } finally {
    await guard.shutdown();
  }
}

/** Milliseconds until the server closes `conn` (EOF or reset); -1 if still open after `limitMs`. */
async function closedAfter(conn: Deno.Conn, limitMs: number): Promise<number> {
  const started = Date.now();
  const buffer = new Uint8Array(1024);
  const deadline = started + limitMs;
  while (Date.now() < deadline) {
    const n = await Promise.race([conn.read(buffer).catch(() => null), sleep(deadline - Date.now())]);
    if (n === null) return Date.now() - started;
    if (n === undefined) break;
  }
  return -1;
}

Deno.test("conn guard: headerEnd finds the blank line with CRLF or bare LF line ends", () => {
  assert.equal(headerEnd(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\nbody"), 0), 27);
  assert.equal(headerEnd(encoder.encode("GET / HTTP/1.1\nHost: x\n\n"), 0), 24);
  assert.equal(headerEnd(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n"), 0), -1);
  assert.equal(contentLength(encoder.encode("POST / HTTP/1.1\r\nContent-Length: 42\r\n\r\n")), 42);
  assert.equal(contentLength(encoder.encode("GET / HTTP/1.1\r\n\r\n")), 0);
  assert.equal(fdBudgetFor({ soft: 1024, open: 74 }), 1024 - 74 - 160);
  assert.equal(fdBudgetFor({ soft: 100, open: 74 }), 64);
});

Deno.test("conn guard: requests are relayed with the client's own address", async () => {
  await withGuard(FAST, async (port) => {
    const res = await fetch(`http://127.0.0.1:${port}/x`, { method: "POST", body: "hello" });
    const body = await res.json();
    assert.equal(body.address, "127.0.0.1");
    assert.equal(body.body, "hello");
    assert.notEqual(body.port, port);
  });
});

Deno.test("conn guard: half-sent headers, a stalled body and an idle connection are cut", async () => {
  await withGuard(FAST, async (port) => {
    const half = await Deno.connect({ hostname: "127.0.0.1", port });
    await half.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "));
    const drip = await Deno.connect({ hostname: "127.0.0.1", port });
    await drip.write(encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab"));
    const idle = await Deno.connect({ hostname: "127.0.0.1", port });
    const [halfMs, dripMs, idleMs] = await Promise.all([
      closedAfter(half, 3_000),
      closedAfter(drip, 3_000),
      closedAfter(idle, 3_000),
    ]);
    for (const c of [half, drip, idle]) c.close();
    assert.ok(halfMs >= 250 && halfMs < 1_500, `half headers cut after ${halfMs} ms`);
    assert.ok(dripMs >= 550 && dripMs < 2_000, `stalled body cut after ${dripMs} ms`);
    assert.ok(idleMs >= 250 && idleMs < 1_500, `idle connection cut after ${idleMs} ms`);
  });
});

Deno.test("conn guard: headers over the limit get 431", async () => {
  await withGuard(FAST, async (port) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(encoder.encode(`GET / HTTP/1.1\r\nX-Big: ${"a".repeat(5000)}`)).catch(() => {});
    const buffer = new Uint8Array(200);
    const n = await conn.read(buffer);
    conn.close();
    assert.match(new TextDecoder().decode(buffer.subarray(0, n ?? 0)), /^HTTP\/1.1 431 /);
  });
});

Deno.test("conn guard: past the descriptor budget, unproven connections make room for a fresh client", async () => {
  await withGuard(
    { ...FAST, headersTimeoutMs: 10_000, keepAliveMs: 10_000, fdBudget: 30 },
    async (port, guard) => {
      const flood: Deno.Conn[] = [];
      for (let i = 0; i < 60; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("GET / HTTP/1.1\r\nX-Slow: "));
        flood.push(conn);
      }
      await sleep(100);
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      const res = await fetch(`http://127.0.0.1:${port}/`, { client });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      client.close();
      const stats = guard.stats();
      assert.ok(stats.fdsInUse <= 30, JSON.stringify(stats));
      assert.ok(stats.evicted >= 30, JSON.stringify(stats));
      for (const conn of flood) conn.close();
    },
  );
});

Deno.test("conn guard: a request that came whole makes room among bodies just announced and not sent", async () => {
  // Budget 60: relays may use 30 descriptors, 10 relays. 20 bodies announced within a few milliseconds, all
  // inside the grace a real body gets to follow its headers: a plain GET must still get through (it used to
  // get 503 when a flood of announced bodies had just filled the relays' share).
  await withGuard(
    { ...FAST, requestTimeoutMs: 10_000, fdBudget: 60 },
    async (port, guard) => {
      const drips = await Promise.all(Array.from({ length: 20 }, async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"));
        return conn;
      }));
      await sleep(10);
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { client });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      } finally {
        client.close();
        for (const conn of drips) conn.close();
      }
      assert.ok(guard.stats().evicted >= 1, JSON.stringify(guard.stats()));
    },
  );
});

Deno.test({
  name:
    "conn guard: out of descriptors within its budget, it cuts the budget and fresh clients still get through",
  ignore: Deno.build.os !== "linux", // `ulimit` through bash
  fn: async () => {
    // The guard believes it may use 400 descriptors; the process may open 160 in all. A flood of half-sent
    // headers runs it out of descriptors at accept(): it must keep accepting, cut its budget below what is in
    // use, and close the connections that have proven least, so that fresh clients keep getting answers.
    const child = new Deno.Command("bash", {
      args: [
        "-c",
        'ulimit -n 160 && exec "$0" run -A "$1" 400',
        Deno.execPath(),
        new URL("../../testing/guard_child.ts", import.meta.url).pathname,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    const readLine = async () => {
      while (!out.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`the guard process ended: ${out}`);
        out += value;
      }
      const line = out.slice(0, out.indexOf("\n"));
      out = out.slice(out.indexOf("\n") + 1);
      return line;
    };
    const stderr = new Response(child.stderr).text();
    const flood: Deno.Conn[] = [];
    try {
      const port = Number(await readLine());
      const answers: number[] = [];
      for (let round = 0; round < 6; round++) {
        for (let i = 0; i < 60; i++) {
          const conn = await Deno.connect({ hostname: "127.0.0.1", port });
          await conn.write(encoder.encode("GET / HTTP/1.1\r\nX-Slow: "));
          flood.push(conn);
        }
        const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
        const res = await fetch(`http://127.0.0.1:${port}/`, { client, signal: AbortSignal.timeout(2_000) })
          .catch(() => null);
        answers.push(res?.status ?? 0);
        await res?.body?.cancel();
        client.close();
      }
      await child.stdin.close();
      const stats = JSON.parse(await readLine());
      const log = await stderr;
      assert.deepEqual(answers, [200, 200, 200, 200, 200, 200], log);
      assert.match(log, /out of descriptors accepting/);
      assert.ok(stats.fdBudget < 160, JSON.stringify(stats)); // cut from 400 below what the process may open
      assert.ok(stats.evicted > 0, JSON.stringify(stats));
      assert.equal((await child.status).code, 0, log);
    } finally {
      for (const conn of flood) conn.close();
      try {
        child.kill();
      } catch { /* exited */ }
      await child.status;
      await stderr.catch(() => {});
    }
  },
});
