import assert from "node:assert/strict";
import { type GuardLimits, type GuardStats, serveGuarded } from "./conn_guard.ts";

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const FAST: Partial<GuardLimits> = { idleTimeoutMs: 300, requestTimeoutMs: 600 };

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

/**
 * Polls the guard's counters until `ok` holds (the guard has done what the test waits for); throws after
 * 30 s, so a wait that never comes true fails here rather than in the assertions after it.
 */
async function until(guard: { stats(): GuardStats }, ok: (stats: GuardStats) => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!ok(guard.stats())) {
    if (Date.now() > deadline) throw new Error(`not so after 30 s: ${JSON.stringify(guard.stats())}`);
    await sleep(5);
  }
}

/**
 * Milliseconds from `started` (default now) until the server closes `conn` (EOF or reset); -1 if still open
 * after `limitMs`.
 */
async function closedAfter(conn: Deno.Conn, limitMs: number, started = Date.now()): Promise<number> {
  const buffer = new Uint8Array(1024);
  const deadline = started + limitMs;
  while (Date.now() < deadline) {
    const n = await Promise.race([conn.read(buffer).catch(() => null), sleep(deadline - Date.now())]);
    if (n === null) return Date.now() - started;
    if (n === undefined) break;
  }
  return -1;
}

Deno.test("conn guard: requests reach the handler with the client's own address", async () => {
  await withGuard(FAST, async (port) => {
    const res = await fetch(`http://127.0.0.1:${port}/x`, { method: "POST", body: "hello" });
    const body = await res.json();
    assert.equal(body.address, "127.0.0.1");
    assert.equal(body.body, "hello");
    assert.notEqual(body.port, port);
  });
});

Deno.test("conn guard: half-sent headers, a stalled body and an idle connection are cut", async () => {
  // Each is cut by its own timeout: never before it (a lower bound no load can break), and by the sweep
  // (counted as timed out), however late a loaded machine runs it: no upper time window.
  await withGuard(FAST, async (port, guard) => {
    // Each clock read before its connection opens: the guard's own starts later, so none can read short.
    const halfAt = Date.now();
    const half = await Deno.connect({ hostname: "127.0.0.1", port });
    await half.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "));
    const dripAt = Date.now();
    const drip = await Deno.connect({ hostname: "127.0.0.1", port });
    await drip.write(encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab"));
    const idleAt = Date.now();
    const idle = await Deno.connect({ hostname: "127.0.0.1", port });
    const [halfMs, dripMs, idleMs] = await Promise.all([
      closedAfter(half, 30_000, halfAt),
      closedAfter(drip, 30_000, dripAt),
      closedAfter(idle, 30_000, idleAt),
    ]);
    for (const c of [half, drip, idle]) c.close();
    assert.ok(halfMs >= 300, `half headers cut after ${halfMs} ms (idle timeout 300 ms)`);
    assert.ok(dripMs >= 600, `stalled body cut after ${dripMs} ms (request timeout 600 ms)`);
    assert.ok(idleMs >= 300, `idle connection cut after ${idleMs} ms (idle timeout 300 ms)`);
    assert.equal(guard.stats().timedOut, 3, JSON.stringify(guard.stats()));
  });
});

Deno.test("conn guard: headers past the HTTP server's buffer get 400 and the connection is closed", async () => {
  await withGuard(FAST, async (port) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    void conn.write(encoder.encode(`GET / HTTP/1.1\r\nX-Big: ${"a".repeat(500_000)}`)).catch(() => {});
    const { text, closed } = await answerOf(conn, 30_000);
    conn.close();
    assert.match(text, /^HTTP\/1.1 400 /);
    assert.ok(closed);
  });
});

Deno.test("conn guard: past the descriptor budget, unproven connections make room for a fresh client", async () => {
  await withGuard(
    { ...FAST, idleTimeoutMs: 10_000, fdBudget: 30 },
    async (port, guard) => {
      const flood: Deno.Conn[] = [];
      for (let i = 0; i < 60; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("GET / HTTP/1.1\r\nX-Slow: "));
        flood.push(conn);
      }
      await until(guard, (stats) => stats.accepted >= 60); // the whole flood is in
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      const res = await fetch(`http://127.0.0.1:${port}/`, { client });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      client.close();
      const stats = guard.stats();
      assert.ok(stats.open <= 30, JSON.stringify(stats));
      assert.ok(stats.evicted >= 30, JSON.stringify(stats));
      for (const conn of flood) conn.close();
    },
  );
});

Deno.test("conn guard: a request that came whole makes room among bodies just announced and not sent", async () => {
  // Budget 10 connections. 20 bodies announced within a few milliseconds, all inside the time a real body
  // gets to follow its headers: a plain GET must still get through (it used to get 503 when a flood of
  // announced bodies had just filled the budget).
  await withGuard(
    { ...FAST, requestTimeoutMs: 10_000, fdBudget: 10 },
    async (port, guard) => {
      const drips = await Promise.all(Array.from({ length: 20 }, async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"));
        return conn;
      }));
      // Every announced body has been accepted, and made room among the others.
      await until(guard, (stats) => stats.accepted >= 20);
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

Deno.test("conn guard: connections not answered yet go before a kept-alive one that was", async () => {
  // Budget 10 connections. A kept-alive connection that was answered, then 12 bodies announced and not sent:
  // the bodies make room among themselves, the answered connection stays usable.
  await withGuard(
    { ...FAST, requestTimeoutMs: 10_000, idleTimeoutMs: 10_000, fdBudget: 10 },
    async (port, guard) => {
      const get = encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      const proven = await Deno.connect({ hostname: "127.0.0.1", port });
      const buffer = new Uint8Array(4096);
      await proven.write(get);
      assert.match(new TextDecoder().decode(buffer.subarray(0, await proven.read(buffer) ?? 0)), / 200 /);
      await sleep(400); // idle past the time an answer may be cut after: rule 3 could close it now
      const drips: Deno.Conn[] = [];
      for (let i = 0; i < 12; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"));
        drips.push(conn);
      }
      try {
        await until(guard, (stats) => stats.accepted >= 13);
        await proven.write(get);
        const again = new TextDecoder().decode(buffer.subarray(0, await proven.read(buffer) ?? 0));
        assert.match(again, / 200 /, JSON.stringify(guard.stats()));
        assert.ok(guard.stats().evicted >= 1, JSON.stringify(guard.stats()));
      } finally {
        proven.close();
        for (const conn of drips) conn.close();
      }
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
        // The limit only stops a hang: an answer, however late, is what counts.
        const res = await fetch(`http://127.0.0.1:${port}/`, { client, signal: AbortSignal.timeout(30_000) })
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

// HTTP/2 with prior knowledge is served by Deno's HTTP server like HTTP/1.x, under the same rules: a bare
// preface is a connection not answered yet, and every stream is a request with a clock of its own.

const PREFACE = encoder.encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
/** An empty SETTINGS frame, as an HTTP/2 client sends right after the preface. */
const SETTINGS = new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]);

/** Everything the server sends on `conn` until it closes it; `closed` false if still open after `limitMs`. */
async function answerOf(conn: Deno.Conn, limitMs: number): Promise<{ text: string; closed: boolean }> {
  let text = "";
  const buffer = new Uint8Array(4096);
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const n = await Promise.race([conn.read(buffer).catch(() => null), sleep(deadline - Date.now())]);
    if (n === undefined) break;
    if (n === null) return { text, closed: true };
    text += new TextDecoder().decode(buffer.subarray(0, n as number));
  }
  return { text, closed: false };
}

Deno.test("conn guard: a bare HTTP/2 preface is cut after the idle timeout", async () => {
  await withGuard(FAST, async (port, guard) => {
    const started = Date.now();
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(PREFACE);
    await conn.write(SETTINGS).catch(() => {});
    const ms = await closedAfter(conn, 30_000, started);
    conn.close();
    assert.ok(ms >= 300, `cut after ${ms} ms (idle timeout 300 ms)`);
    assert.equal(guard.stats().timedOut, 1, JSON.stringify(guard.stats()));
  });
});

Deno.test("conn guard: request lines other than HTTP/1.0 and HTTP/1.1 get 400 and are closed", async () => {
  await withGuard(FAST, async (port) => {
    const cases: [string, RegExp][] = [
      ["GET / HTTP/2.0\r\nHost: x\r\n\r\n", / 400 /],
      ["GET / HTTP/1.2\r\nHost: x\r\n\r\n", / 400 /],
      ["GET / HTTP/3\r\nHost: x\r\n\r\n", / 400 /],
      ["GET /\r\nHost: x\r\n\r\n", / 400 /], // HTTP/0.9 has no version
      ["\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", / 400 /], // a TLS hello on the plain port
      ["GET / SMTP/1.1\r\n\r\n", / 400 /],
    ];
    for (const [request, status] of cases) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(encoder.encode(request));
      const { text, closed } = await answerOf(conn, 30_000);
      conn.close();
      assert.match(text.split("\r\n")[0], status, JSON.stringify(request));
      assert.ok(closed, `${JSON.stringify(request)}: closed after the answer`);
    }
    // HTTP/1.0 and HTTP/1.1 pass.
    for (const version of ["1.0", "1.1"]) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(encoder.encode(`GET / HTTP/${version}\r\nHost: x\r\nConnection: close\r\n\r\n`));
      const { text } = await answerOf(conn, 30_000);
      conn.close();
      assert.match(text, /^HTTP\/1\.[01] 200 /, version);
    }
  });
});

/**
 * Hostile HTTP/2 clients in a process of their own, as they would be on another machine: `count` loops that
 * each connect to `port`, send the preface and a SETTINGS frame, wait until the server cuts the connection
 * and reconnect at once. Closing the child's stdin stops them; it then prints how many cuts it saw.
 */
function prefaceAttackers(port: number, count: number): { stop(): Promise<number> } {
  const script = `
    const port = ${port};
    let running = true, cuts = 0;
    const preface = new Uint8Array([${PREFACE}]);
    const settings = new Uint8Array([${SETTINGS}]);
    for (let i = 0; i < ${count}; i++) (async () => {
      const buffer = new Uint8Array(1024);
      while (running) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port }).catch(() => null);
        if (!conn) continue;
        await conn.write(preface).catch(() => {});
        await conn.write(settings).catch(() => {});
        while (running && await conn.read(buffer).catch(() => null) !== null) { /* until cut */ }
        try { conn.close(); } catch { /* closed */ }
        cuts++;
      }
    })();
    for await (const _ of Deno.stdin.readable) { /* until the test closes stdin */ }
    running = false;
    console.log(cuts);
    Deno.exit(0); // the connections still open close with the process
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  return {
    async stop() {
      await child.stdin.close();
      const { stdout } = await child.output();
      return Number(new TextDecoder().decode(stdout).trim());
    },
  };
}

Deno.test("conn guard: clients that send the HTTP/2 preface and reconnect when cut cannot shut out fresh clients", async () => {
  // Budget 20 connections. 40 clients send the preface, wait until cut and reconnect at once, as a hostile
  // HTTP/2 client would; a fresh client's GET every 50 ms must get 200 throughout. (When the preface was taken
  // for the end of a request's headers and relayed, such connections filled the budget and matched no rule
  // that closes connections: fresh clients got 503.) The attackers run in a child process, as they would on
  // another machine: in the guard's own event loop their 40 loops took the turns a fresh client's request
  // needs to reach the handler within its grace, and 3 runs in 95 under two CPU hogs had a probe reset.
  // An idle timeout of 5 s: a probe read late on a busy machine must not be cut as idle.
  await withGuard({ ...FAST, idleTimeoutMs: 5_000, fdBudget: 20 }, async (port, guard) => {
    const attackers = prefaceAttackers(port, 40);
    const statuses: (number | string)[] = [];
    let cuts = 0;
    try {
      // The attack is under way: the budget is full and connections are being closed to make room.
      await until(guard, (stats) => stats.evicted >= 40);
      for (let i = 0; i < 30; i++) {
        await sleep(50);
        const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
        // 503 was the failure; the limit only stops a hang on a loaded machine.
        const res = await fetch(`http://127.0.0.1:${port}/`, { client, signal: AbortSignal.timeout(15_000) })
          .catch((error) => String(error.cause ?? error).slice(0, 120));
        statuses.push(typeof res === "string" ? res : res.status);
        if (typeof res !== "string") await res.body?.cancel();
        client.close();
      }
    } finally {
      cuts = await attackers.stop();
    }
    assert.deepEqual(statuses.filter((s) => s !== 200), [], `statuses: ${statuses.join(" ")}`);
    assert.ok(cuts >= 40, `the attackers were cut ${cuts} times`);
  });
});

Deno.test("conn guard: HTTP/2 cannot carry a dripped body past the request timeout beside other streams", async () => {
  // One HTTP/2 connection (prior knowledge): a POST whose body drips a byte every 100 ms, and a GET on a new
  // stream every 200 ms. The request timeout is 600 ms: the POST must be over (refused or cut) while the other
  // streams still run, counted in streams, not seconds (one request clock per connection, reset by every new
  // stream, kept it open for as long as the other streams ran).
  await withGuard(FAST, async (port) => {
    const client = Deno.createHttpClient({ http1: false, http2: true });
    const started = Date.now();
    let dripping = true;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await sleep(100);
        if (!dripping) return controller.close();
        controller.enqueue(encoder.encode(" "));
      },
    });
    const post = fetch(`http://127.0.0.1:${port}/api/leads`, { client, method: "POST", body })
      .then((res) => res.text()).then(() => Date.now() - started, () => Date.now() - started);
    let postMs = -1;
    void post.then((ms) => postMs = ms);
    let streams = 0;
    for (; postMs < 0 && streams < 100; streams++) {
      await fetch(`http://127.0.0.1:${port}/healthz`, { client }).then((res) => res.text()).catch(() => {});
      await sleep(200);
    }
    dripping = false;
    await post;
    client.close();
    assert.ok(streams < 100, `the dripped POST outlasted ${streams} other streams (${postMs} ms)`);
    console.log(
      `the dripped POST was over after ${postMs} ms, ${streams} other streams (request timeout 600 ms)`,
    );
  });
});

/** The process's open sockets, by their inode ("socket:[123]"). */
async function openSockets(): Promise<Set<string>> {
  const sockets = new Set<string>();
  for await (const entry of Deno.readDir("/proc/self/fd")) {
    const link = await Deno.readLink(`/proc/self/fd/${entry.name}`).catch(() => "");
    if (link.startsWith("socket:")) sockets.add(link);
  }
  return sockets;
}

Deno.test({
  name: "conn guard: a connection costs one descriptor, with no loopback hop",
  ignore: Deno.build.os !== "linux", // /proc
  fn: async () => {
    await withGuard({ ...FAST, idleTimeoutMs: 10_000 }, async (port, guard) => {
      const before = await openSockets();
      const conns = await Promise.all(Array.from({ length: 20 }, async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        await conn.read(new Uint8Array(4096));
        return conn;
      }));
      // 20 client ends and 20 server ends; a relay used to add two more sockets a connection (80 in all). The
      // sockets opened meanwhile are counted, not the difference in number: the other test files of the process
      // open and close sockets of their own (a socket or two more seen once in CI, 42; and three fewer, 37).
      const added = [...await openSockets()].filter((s) => !before.has(s)).length;
      for (const conn of conns) conn.close();
      assert.equal(guard.stats().open, 20);
      assert.ok(added >= 40 && added < 50, `${added} sockets for 20 kept-alive connections (40 expected)`);
    });
  },
});
