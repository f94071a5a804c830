// What the connection guard costs, in one run: Deno.serve alone ("plain"), this checkout's guard ("guard")
// and an older guard ("old", --old: a commit whose src/server/conn_guard.ts is written out and served the
// same way; default the relay with two 64 KiB buffers per connection), each in its own process
// (bench/guard_server.ts, a small fixed answer, at the hard limit on open files: `ulimit -n $(ulimit -Hn)`,
// with the young-generation V8 flag of `deno task start`).
//
//   deno run -A bench/guard.ts [--rounds 5] [--secs 5] [--idle 5000] [--old 5491ebf] [--only cpu,memory]
//
// CPU: the three servers run at once, each loaded by its own wrk (Debian's package; 1 thread, 32 kept-alive
// connections) for --secs a round, so the shared machine's noise falls on all three alike; CPU per request is
// the server process's user + system time over the requests answered. Floor: guard ≤ plain + 15 µs (the
// median of the rounds' differences).
// Memory: one server at a time; --idle kept-alive connections, each sending one GET every 4 s; the resident
// memory (VmRSS) the server added 10 s after the last connection opened, per connection still open (on a
// loaded machine a starved server lets some clients' next GET come after the 5 s idle limit) and projected
// to --idle. Floor: guard ≤ 100 MB. "bare" (bench/guard_server.ts) hands each connection to Deno's server for
// one connection with nothing else: the least a guard built that way can cost, so guard − bare is the guard's
// own share and bare − plain is Deno's, per connection. The old guard relays at most a sixth of its
// descriptor budget (~3,280 at 20,000 descriptors): it gets at most 3,200 connections.
// The load average is printed beside every measurement; exits 1 when a floor fails.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    rounds: { type: "string", default: "5" },
    secs: { type: "string", default: "5" },
    idle: { type: "string", default: "5000" },
    old: { type: "string", default: "5491ebf" },
    only: { type: "string", default: "cpu,memory" },
  },
});
const ROUNDS = Number(values.rounds), SECS = Number(values.secs), IDLE = Number(values.idle);
const ONLY = new Set(values.only.split(","));
const root = new URL("../", import.meta.url).pathname;
const work = await Deno.makeTempDir({ prefix: "bench-guard-" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");

// The older guard, importing this checkout's logger.
const oldSource = await new Deno.Command("git", {
  args: ["-C", root, "show", `${values.old}:src/server/conn_guard.ts`],
  stdout: "piped",
}).output();
if (!oldSource.success) throw new Error(`no src/server/conn_guard.ts at ${values.old}`);
await Deno.mkdir(`${work}/server`, { recursive: true });
await Deno.mkdir(`${work}/core`);
await Deno.writeFile(`${work}/server/conn_guard.ts`, oldSource.stdout);
await Deno.writeTextFile(`${work}/core/log.ts`, `export * from "${root}src/core/log.ts";\n`);
// Guards from 2026-11 on read request heads with a helper beside them.
const helper = await new Deno.Command("git", {
  args: ["-C", root, "show", `${values.old}:src/server/http1_head.ts`],
  stdout: "piped",
  stderr: "null",
}).output();
if (helper.success) await Deno.writeFile(`${work}/server/http1_head.ts`, helper.stdout);
const oldLines = new TextDecoder().decode(oldSource.stdout).split("\n").length - 1;
const newLines = (await Deno.readTextFile(`${root}src/server/conn_guard.ts`)).split("\n").length - 1;

const MODES = { plain: "plain", bare: "bare", guard: "guard", old: `${work}/server/conn_guard.ts` } as const;
type Mode = keyof typeof MODES;

interface Server {
  pid: number;
  port: number;
  stop(): Promise<void>;
}

async function startServer(mode: Mode, port: number): Promise<Server> {
  const child = new Deno.Command("bash", {
    args: [
      "-c",
      'ulimit -n "$(ulimit -Hn)" && exec "$0" run -A --v8-flags=--max-semi-space-size=8 "$1" "$2" "$3"',
      Deno.execPath(),
      `${root}bench/guard_server.ts`,
      MODES[mode],
      String(port),
    ],
    env: { LOG_LEVEL: "error" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${mode} server did not start`);
    out += value;
  }
  reader.releaseLock();
  void child.stdout.cancel().catch(() => {});
  return {
    pid: child.pid,
    port,
    async stop() {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

/** CPU seconds (user + system) a process has used. */
async function cpu(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024;
}

async function wrk(port: number, secs: number): Promise<number> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", "-c32", `-d${secs}s`, `http://127.0.0.1:${port}/`],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (/Non-2xx|Socket errors/.test(text)) console.error(text);
  return Number(/(\d+) requests in/.exec(text)?.[1] ?? 0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const failures: string[] = [];
console.log(`guard: ${newLines} lines (old at ${values.old}: ${oldLines} lines)`);

try {
  if (ONLY.has("cpu")) {
    const servers = {
      plain: await startServer("plain", 8411),
      guard: await startServer("guard", 8412),
      old: await startServer("old", 8413),
    };
    try {
      const diffs: { guard: number[]; old: number[] } = { guard: [], old: [] };
      console.log(`\nCPU per request (µs), ${ROUNDS} rounds of ${SECS} s, all three servers loaded at once`);
      for (let round = 0; round <= ROUNDS; round++) {
        const modes = Object.keys(servers) as (keyof typeof servers)[];
        const before = await Promise.all(modes.map((m) => cpu(servers[m].pid)));
        const answered = await Promise.all(modes.map((m) => wrk(servers[m].port, round ? SECS : 2)));
        const after = await Promise.all(modes.map((m) => cpu(servers[m].pid)));
        if (round === 0) continue; // warm-up
        const us = modes.map((_, i) => (after[i] - before[i]) * 1e6 / answered[i]);
        diffs.guard.push(us[1] - us[0]);
        diffs.old.push(us[2] - us[0]);
        console.log(
          `round ${round}: plain ${us[0].toFixed(1)} (${answered[0]} requests), guard ${us[1].toFixed(1)} ` +
            `(+${(us[1] - us[0]).toFixed(1)}), old ${us[2].toFixed(1)} (+${(us[2] - us[0]).toFixed(1)}); ` +
            `load average ${await load()}`,
        );
      }
      const [g, o] = [median(diffs.guard), median(diffs.old)];
      const pass = g <= 15;
      console.log(
        `median over plain: guard +${g.toFixed(1)} µs, old +${o.toFixed(1)} µs a request ` +
          `(floor: guard ≤ +15 µs) ${pass ? "PASS" : "FAIL"}`,
      );
      if (!pass) failures.push(`guard CPU +${g.toFixed(1)} µs a request`);
    } finally {
      for (const s of Object.values(servers)) await s.stop();
    }
  }

  if (ONLY.has("memory")) {
    console.log(`\nResident memory added by ${IDLE} kept-alive connections, one GET every 4 s each`);
    const request = new TextEncoder().encode("GET / HTTP/1.1\r\nHost: bench\r\n\r\n");
    const perConnection: Partial<Record<Mode, number>> = {};
    for (const mode of Object.keys(MODES) as Mode[]) {
      const count = mode === "old" ? Math.min(IDLE, 3_200) : IDLE;
      const server = await startServer(mode, 8420);
      let running = true;
      let alive = 0;
      try {
        for (let i = 0; i < 200; i++) await (await fetch(`http://127.0.0.1:8420/`)).text();
        await sleep(1_000);
        const base = await rssMb(server.pid);
        const clients: Promise<void>[] = [];
        for (let i = 0; i < count; i++) {
          clients.push((async () => {
            const conn = await Deno.connect({ hostname: "127.0.0.1", port: 8420 });
            const buffer = new Uint8Array(1024);
            alive++;
            try {
              while (running) {
                await conn.write(request);
                if (await conn.read(buffer) === null) break;
                await sleep(3_000 + Math.random() * 1_000);
              }
            } catch { /* cut */ }
            alive--;
            conn.close();
          })());
          if (i % 250 === 249) await sleep(100);
        }
        await sleep(10_000);
        const added = await rssMb(server.pid) - base;
        const each = added * 1024 / Math.max(1, alive); // per connection still open
        const projected = each * IDLE / 1024;
        perConnection[mode] = each;
        const pass = mode !== "guard" || projected <= 100;
        const floor = mode === "guard" ? `, floor ≤ 100 MB: ${pass ? "PASS" : "FAIL"}` : "";
        console.log(
          `${mode}: ${base.toFixed(0)} MB before, +${added.toFixed(0)} MB with ${alive} of ${count} open ` +
            `(${each.toFixed(1)} KB each, +${
              projected.toFixed(0)
            } MB for ${IDLE})${floor}; load ${await load()}`,
        );
        if (!pass) failures.push(`guard memory +${projected.toFixed(0)} MB for ${IDLE}`);
        if (alive < count) failures.push(`${mode}: only ${alive} of ${count} connections stayed open`);
        running = false;
        await server.stop();
        await Promise.all(clients);
      } finally {
        running = false;
        await server.stop().catch(() => {});
      }
    }
    const { plain, bare, guard } = perConnection;
    if (plain !== undefined && bare !== undefined && guard !== undefined) {
      console.log(
        `per connection: Deno's server for one connection +${
          (bare - plain).toFixed(1)
        } KB over Deno.serve, ` +
          `the guard's own bookkeeping +${(guard - bare).toFixed(1)} KB over that`,
      );
    }
  }
} finally {
  await Deno.remove(work, { recursive: true });
}
if (failures.length) {
  console.log(`\nFAILED: ${failures.join("; ")}`);
  Deno.exit(1);
}
