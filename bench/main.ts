// `deno task bench`: speed as a measured property. Starts the real server (bench/server.ts: src/main.ts over
// the production client build, plus the ceiling routes) as a separate process, drives it from another process
// (Node + autocannon, bench/load.cjs) and prints one table: every figure next to a ceiling measured in the
// same run against the same process (bench/ceilings.ts), so ratios hold on a noisy machine. Exits 1 when any
// floor fails.
//
//   deno task bench [--duration 10] [--warmup 3] [--connections 64] [--only pages,embedded,ingest,dashboard]
//                   [--db pglite,postgres]
// PostgreSQL runs when BENCH_DATABASE_URL (or DATABASE_URL) is set, in a fresh schema dropped afterwards.
import { parseArgs } from "node:util";
import { build } from "../build.ts";
import { openDb } from "../src/db/client.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "64" },
    only: { type: "string", default: "pages,embedded,ingest,dashboard" },
    db: { type: "string", default: "pglite,postgres" },
    port: { type: "string", default: "8301" },
    "no-build": { type: "boolean", default: false },
  },
});
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const ONLY = new Set(values.only.split(",").map((s) => s.trim()));
const PORT = Number(values.port);
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") || Deno.env.get("DATABASE_URL") || "";
const DBS = values.db.split(",").map((s) => s.trim()).filter((d) =>
  d === "pglite" || (d === "postgres" && PG_URL)
);
const AUTOCANNON = "9.0.0";
const VISITORS = 20_000; // distinct client addresses in the ingestion load (120 events/min each is allowed)
const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const root = new URL("../", import.meta.url);
const work = await Deno.makeTempDir({ prefix: "bench-" });

interface Row {
  section: string;
  measurement: string;
  value: string;
  ceiling: string;
  ratio: string;
  floor: string;
  pass: boolean | null; // null: reported, no floor
}
const rows: Row[] = [];
const notes: string[] = [];
if (!PG_URL && values.db.includes("postgres")) {
  notes.push("PostgreSQL: NOT MEASURED — set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL URL");
}

// ---------------------------------------------------------------------------------------------- helpers

async function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${stdout}\n${new TextDecoder().decode(out.stderr)}`);
  }
  return stdout;
}

/** Installs autocannon once into .cache/bench (npm registry, pinned version). */
async function autocannonPath(): Promise<string> {
  const dir = new URL(".cache/bench/", root);
  const pkg = new URL(`node_modules/autocannon/package.json`, dir);
  const installed = await Deno.readTextFile(pkg).then((t) => JSON.parse(t).version, () => null);
  if (installed !== AUTOCANNON) {
    console.error(`installing autocannon@${AUTOCANNON} (npm) into .cache/bench …`);
    await Deno.mkdir(dir, { recursive: true });
    await run("npm", [
      "install",
      "--prefix",
      dir.pathname,
      "--no-audit",
      "--no-fund",
      "--no-save",
      `autocannon@${AUTOCANNON}`,
    ]);
  }
  return new URL("node_modules/", dir).pathname;
}

interface LoadSpec {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  visitors?: number;
  duration: number;
}

interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  duration: number;
}

let nodePath = "";
/** One autocannon run in a separate Node process. */
async function load(spec: LoadSpec): Promise<LoadResult> {
  const out = await run("node", [
    new URL("bench/load.cjs", root).pathname,
    JSON.stringify({ connections: CONNECTIONS, ...spec }),
  ], { NODE_PATH: nodePath });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

interface Server {
  pid: number;
  origin: string;
  /** From the spawn to the first 200 of /healthz (answered once the database is open and migrated). */
  startMs: number;
  /** CPU time the server had used by then: what the start costs whatever the machine's load. */
  startCpuMs: number;
  stop(): Promise<void>;
}

/** Starts bench/server.ts as its own process and waits until /healthz answers. */
async function startServer(name: string, env: Record<string, string>): Promise<Server> {
  const origin = `http://127.0.0.1:${PORT}`;
  const spawnedAt = performance.now();
  const logFile = `${work}/${name}.log`;
  const child = new Deno.Command(Deno.execPath(), {
    // The V8 flag is the one `deno task start` and the Dockerfile run the server with.
    args: [
      "run",
      "-A",
      "--v8-flags=--max-semi-space-size=8,--max-old-space-size=1024",
      new URL("bench/server.ts", root).pathname,
    ],
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_ORIGIN: origin,
      TRUST_PROXY: "1",
      LOG_LEVEL: "warn", // one log line per request would measure the terminal, not the server
      DATABASE_URL: "",
      DATA_DIR: `${work}/${name}-data`,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Both streams append to one log file (a WritableStream takes one writer, so two handles).
  const sink = async (stream: ReadableStream<Uint8Array>) => {
    const file = await Deno.open(logFile, { create: true, append: true });
    await stream.pipeTo(file.writable);
  };
  const drained = Promise.all([sink(child.stdout), sink(child.stderr)]);
  let exited = false;
  let stopping: Promise<void> | undefined;
  const status = child.status.finally(() => exited = true);
  // A first PGlite start runs initdb: about 5 s of CPU, over a minute of wall time on a crowded machine.
  const deadline = Date.now() + 180_000;
  while (true) {
    if (exited || Date.now() > deadline) {
      throw new Error(`server ${name} did not start; its log:\n${await Deno.readTextFile(logFile)}`);
    }
    const ok = await fetch(`${origin}/healthz`).then((r) => (r.body?.cancel(), r.ok), () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const startMs = performance.now() - spawnedAt;
  const startCpuMs = await cpuMs(child.pid);
  return {
    pid: child.pid,
    origin,
    startMs,
    startCpuMs,
    stop: () =>
      stopping ??= (async () => {
        if (!exited) child.kill("SIGTERM");
        const timer = setTimeout(() => !exited && child.kill("SIGKILL"), 20_000);
        await status;
        clearTimeout(timer);
        await drained.catch(() => {});
        const log = (await Deno.readTextFile(logFile)).trim();
        const problems = log.split("\n").filter((l) => /"level":"(warn|error)"/.test(l));
        if (problems.length) {
          notes.push(
            `${name} server logged ${problems.length} warning/error lines, first:\n  ${
              problems.slice(0, 3).join("\n  ")
            }`,
          );
        }
      })(),
  };
}

/** Peak resident memory (VmHWM) and current resident memory (VmRSS) of a process, in MB. */
async function memoryOf(pid: number): Promise<{ hwm: number; rss: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (key: string) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
  return { hwm: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
}

/** CPU time (user + system) a process has used, in ms (clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15 of stat)
}

/** Runs one load and also reports the server's CPU time per answered request, in µs. */
async function measured(server: Server, spec: LoadSpec): Promise<LoadResult & { cpuUs: number }> {
  const before = await cpuMs(server.pid);
  const result = await load(spec);
  const used = await cpuMs(server.pid) - before;
  return { ...result, cpuUs: result.requests ? (used * 1000) / result.requests : 0 };
}

type Measured = LoadResult & { cpuUs: number };

/** Two runs as one: counts and durations add up, latency percentiles take the worse run. */
function merge(a: Measured, b: Measured): Measured {
  const statuses = { ...a.statuses };
  for (const [code, n] of Object.entries(b.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const requests = a.requests + b.requests;
  const duration = a.duration + b.duration;
  return {
    requests,
    rps: duration ? requests / duration : 0,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    ok2xx: a.ok2xx + b.ok2xx,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    timeouts: a.timeouts + b.timeouts,
    statuses,
    duration,
    cpuUs: requests ? (a.cpuUs * a.requests + b.cpuUs * b.requests) / requests : 0,
  };
}

/**
 * The ceiling and the measured route in ABBA order, half the duration each time, so a change in the machine's
 * load during the run weighs on both alike. `during` wraps the two measured halves (memory sampling).
 */
async function paired(
  server: Server,
  ceiling: LoadSpec,
  measuredSpec: LoadSpec,
  during: (run: () => Promise<Measured>) => Promise<Measured> = (run) => run(),
): Promise<{ c: Measured; m: Measured; stolen: { c: number; m: number } }> {
  const half = Math.max(1, Math.round(DURATION / 2));
  const s0 = await cpuTimes();
  const c1 = await measured(server, { ...ceiling, duration: half });
  const s1 = await cpuTimes();
  const m = await during(async () =>
    merge(
      await measured(server, { ...measuredSpec, duration: half }),
      await measured(server, { ...measuredSpec, duration: half }),
    )
  );
  const s2 = await cpuTimes();
  const c2 = await measured(server, { ...ceiling, duration: half });
  const s3 = await cpuTimes();
  const pct = (stolen: number, total: number) => total > 0 ? 100 * stolen / total : 0;
  return {
    c: merge(c1, c2),
    m,
    stolen: {
      c: pct(s1.steal - s0.steal + s3.steal - s2.steal, s1.total - s0.total + s3.total - s2.total),
      m: pct(s2.steal - s1.steal, s2.total - s1.total),
    },
  };
}

/** The machine's CPU time so far (all cores, in ticks) and the part the hypervisor gave to other guests. */
async function cpuTimes(): Promise<{ steal: number; total: number }> {
  const fields = (await Deno.readTextFile("/proc/stat")).split("\n")[0].trim().split(/\s+/).slice(1, 9)
    .map(Number);
  return { steal: fields[7] ?? 0, total: fields.reduce((a, b) => a + b, 0) };
}

/** The row that tells how much of the machine the measured runs actually had. */
function stolenRow(section: string, stolen: { c: number; m: number }) {
  add({
    section,
    measurement: "CPU time stolen by the hypervisor during the runs, %",
    value: stolen.m.toFixed(1),
    ceiling: stolen.c.toFixed(1),
    ratio: "",
    floor: "",
  });
}

/** Samples VmRSS every 100 ms until stopped; returns the largest sample. */
function sampleRss(pid: number) {
  let max = 0;
  const timer = setInterval(() => memoryOf(pid).then((m) => max = Math.max(max, m.rss), () => {}), 100);
  return () => (clearInterval(timer), max);
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (a: number, b: number) => b > 0 ? a / b : 0;

function add(row: Omit<Row, "pass"> & { pass?: boolean | null }) {
  rows.push({ pass: null, ...row });
}

// ---------------------------------------------------------------------------------------------- sections

async function benchPages(server: Server) {
  const headers = { "accept-encoding": "gzip, deflate, br", "user-agent": BROWSER_UA, accept: "text/html" };
  const page = `${server.origin}/pt-br`;
  const ceiling = `${server.origin}/__bench/page`;
  const probe = await fetch(page, { headers });
  const probeBody = new Uint8Array(await probe.arrayBuffer());
  if (probe.status !== 200) throw new Error(`/pt-br answered ${probe.status}`);
  const encoding = probe.headers.get("content-encoding") ?? "identity";
  await load({ url: page, headers, duration: WARMUP });
  await load({ url: ceiling, headers, duration: WARMUP });
  const { c, m: p, stolen } = await paired(server, { url: ceiling, headers, duration: DURATION }, {
    url: page,
    headers,
    duration: DURATION,
  });
  const r = ratio(p.rps, c.rps);
  const section = "public pages";
  add({
    section,
    measurement: `GET /pt-br req/s (${encoding}, ${fmt(probeBody.byteLength)} B decoded)`,
    value: fmt(p.rps),
    ceiling: fmt(c.rps),
    ratio: r.toFixed(2),
    floor: "ratio ≥ 0.80",
    pass: r >= 0.8,
  });
  add({
    section,
    measurement: "GET /pt-br p99 ms",
    value: fmt(p.p99),
    ceiling: fmt(c.p99),
    ratio: "",
    floor: "",
  });
  add({
    section,
    measurement: "server CPU per request, µs",
    value: fmt(p.cpuUs),
    ceiling: fmt(c.cpuUs),
    ratio: "",
    floor: "",
  });
  stolenRow(section, stolen);
  const failures = p.non2xx + p.errors + p.timeouts;
  add({
    section,
    measurement: "GET /pt-br errors (non-2xx, socket, timeouts)",
    value: fmt(failures),
    ceiling: fmt(c.non2xx + c.errors + c.timeouts),
    ratio: "",
    floor: "= 0",
    pass: failures === 0,
  });
}

/** How long a started server is left alone before its resident memory is read: past the first roll-up (5 s). */
const IDLE_MS = 10_000;
/** Floors of the embedded default on a small server (issue 19). */
const EMBEDDED_IDLE_MB = 250;
const EMBEDDED_COLD_START_MS = 5_000;
const PEAK_UNDER_INGESTION_MB = { postgres: 200, pglite: 300 };

const loadAverage = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");

/**
 * The embedded default as a self-hoster first meets it: a first start on an empty DATA_DIR (initdb), then a
 * later start on the same directory. Resident memory once idle, and the time from spawn to the first 200.
 */
async function benchEmbedded() {
  const section = "embedded (pglite)";
  const idleRss = async (server: Server) => {
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return (await memoryOf(server.pid)).rss;
  };
  const starts: { label: string; startMs: number; cpuMs: number; load: string; rss: number; hwm: number }[] =
    [];
  for (const label of ["first start (empty DATA_DIR)", "later start (existing DATA_DIR)"]) {
    const server = await startServer("embedded", {});
    const load = await loadAverage();
    try {
      const rss = await idleRss(server);
      const { startMs, startCpuMs: cpuMs } = server;
      starts.push({ label, startMs, cpuMs, load, rss, hwm: (await memoryOf(server.pid)).hwm });
    } finally {
      await server.stop();
    }
  }
  for (const start of starts) {
    add({
      section,
      measurement: `idle RSS ${IDLE_MS / 1000} s after a ${start.label} (VmHWM ${fmt(start.hwm)} MB)`,
      value: `${fmt(start.rss)} MB`,
      ceiling: "",
      ratio: "",
      floor: `≤ ${EMBEDDED_IDLE_MB} MB`,
      pass: start.rss <= EMBEDDED_IDLE_MB,
    });
  }
  const [first, later] = starts;
  add({
    section,
    measurement: `first start to the first 200 of /healthz (initdb; load average ${first.load})`,
    value: `${fmt(first.startMs / 1000, 1)} s`,
    ceiling: "",
    ratio: "",
    floor: "",
  });
  // Time follows the machine's load (RSS hardly does): the load average is printed beside it.
  add({
    section,
    measurement: `cold start to the first 200 of /healthz, existing DATA_DIR (load average ${later.load})`,
    value: `${fmt(later.startMs / 1000, 1)} s`,
    ceiling: "",
    ratio: "",
    floor: `≤ ${EMBEDDED_COLD_START_MS / 1000} s`,
    pass: later.startMs <= EMBEDDED_COLD_START_MS,
  });
  add({
    section,
    measurement: "server CPU time by that first 200 (all its threads), existing DATA_DIR",
    value: `${fmt(later.cpuMs / 1000, 1)} s`,
    ceiling: "",
    ratio: "",
    floor: "",
  });
}

/** Visits stored, read after the server stopped (PGlite is single-process: only its owner can open it). */
async function countVisits(dbUrl: string | null, dataDir: string): Promise<number> {
  const db = await openDb(dbUrl ? { databaseUrl: dbUrl, max: 1 } : { dataDir });
  try {
    return (await db.query<{ n: number }>("select count(*)::int as n from visits"))[0].n;
  } finally {
    await db.close();
  }
}

async function benchIngest(server: Server, kind: "pglite" | "postgres") {
  const headers = {
    "content-type": "application/json",
    origin: server.origin,
    "user-agent": BROWSER_UA,
  };
  const body = JSON.stringify({
    source: "/pt-br",
    sessionId: "bench-session-0001",
    utmSource: "bench",
    utmCampaign: "speed",
    utmMedium: "cpc",
  });
  const visit = {
    url: `${server.origin}/api/tracking/visit`,
    method: "POST",
    headers,
    body,
    visitors: VISITORS,
  };
  const bare = { ...visit, url: `${server.origin}/__bench/204` };
  await load({ ...bare, duration: WARMUP });
  const warm = await load({ ...visit, duration: WARMUP });
  let reset = false;
  let mem = { hwm: 0, rss: 0 };
  let peakSampled = 0;
  const { c, m: v, stolen } = await paired(
    server,
    { ...bare, duration: DURATION },
    { ...visit, duration: DURATION },
    async (run) => {
      // Start the peak (VmHWM) afresh, so it is the peak under ingestion, not of start-up (PGlite's initdb).
      reset = await Deno.writeTextFile(`/proc/${server.pid}/clear_refs`, "5").then(() => true, () => false);
      const stopSampling = sampleRss(server.pid);
      const result = await run();
      mem = await memoryOf(server.pid); // the peak since the reset: memory under the ingestion load only
      peakSampled = stopSampling();
      return result;
    },
  );
  const eventsPerSecond = v.ok2xx / (v.duration || DURATION);
  const bareRps = c.ok2xx / (c.duration || DURATION);
  const r = ratio(eventsPerSecond, bareRps);
  const section = `ingestion (${kind})`;
  const floors = kind === "postgres";
  add({
    section,
    measurement: "POST /api/tracking/visit events/s (202)",
    value: fmt(eventsPerSecond),
    ceiling: fmt(bareRps),
    ratio: r.toFixed(2),
    floor: floors ? "≥ 5,000; ratio ≥ 0.50" : "",
    pass: floors ? eventsPerSecond >= 5000 && r >= 0.5 : null,
  });
  add({
    section,
    measurement: "POST /api/tracking/visit p99 ms",
    value: fmt(v.p99),
    ceiling: fmt(c.p99),
    ratio: "",
    floor: "",
  });
  add({
    section,
    measurement: "server CPU per request, µs",
    value: fmt(v.cpuUs),
    ceiling: fmt(c.cpuUs),
    ratio: "",
    floor: "",
  });
  stolenRow(section, stolen);
  const failures = v.non2xx + v.errors + v.timeouts;
  add({
    section,
    measurement: "errors (non-2xx, socket, timeouts)",
    value: failures ? `${fmt(failures)} ${JSON.stringify(v.statuses)}` : "0",
    ceiling: "",
    ratio: "",
    floor: "= 0",
    pass: failures === 0,
  });
  // One client hammering (no proxy header): past 120 a minute it must get 429s, answered, not errors.
  const one = await load({ ...visit, visitors: undefined, duration: Math.min(3, DURATION) });
  const others = Object.keys(one.statuses).filter((code) => code !== "202" && code !== "429");
  add({
    section,
    measurement: "one client, no X-Forwarded-For: answers by status",
    value: JSON.stringify(one.statuses),
    ceiling: "",
    ratio: "",
    floor: "202/429 only",
    pass: one.errors + one.timeouts === 0 && others.length === 0 && (one.statuses["429"] ?? 0) > 0,
  });
  return { acked: warm.ok2xx + v.ok2xx + one.ok2xx, mem, peakSampled, section, reset };
}

// ---------------------------------------------------------------------------------------------- run

let failed = false;
const cleanups: (() => Promise<void>)[] = [];
try {
  if (!values["no-build"]) {
    console.error("building the client (production build) …");
    await build();
  }
  nodePath = await autocannonPath();
  console.error(`load average before: ${await loadAverage()}`);

  if (ONLY.has("pages")) {
    // Pages touch no database; their own server, so the ingestion servers' memory peak is their own.
    console.error("public pages …");
    const server = await startServer("pages", {});
    try {
      await benchPages(server);
    } finally {
      await server.stop();
    }
  }

  if (ONLY.has("embedded")) {
    console.error("embedded database: first and later start …");
    await benchEmbedded();
  }

  for (const kind of ONLY.has("ingest") ? DBS as ("pglite" | "postgres")[] : []) {
    let dbUrl: string | null = null;
    let dropSchema = async () => {};
    if (kind === "postgres") {
      const schema = `bench_${Date.now()}`;
      const admin = await openDb({ databaseUrl: PG_URL, max: 1 });
      await admin.exec(`create schema ${schema}`);
      const url = new URL(PG_URL);
      url.searchParams.set("search_path", schema);
      dbUrl = url.toString();
      dropSchema = async () => {
        dropSchema = async () => {};
        await admin.exec(`drop schema ${schema} cascade`);
        await admin.close();
      };
      cleanups.push(() => dropSchema());
    }
    const dataDir = `${work}/${kind}-data`;
    console.error(`tracking ingestion on ${kind} …`);
    const server = await startServer(kind, dbUrl ? { DATABASE_URL: dbUrl } : {});
    try {
      const result = await benchIngest(server, kind);
      await server.stop();
      // After the server drained (SIGTERM), every 202 of the warm-up and the run must be a row. A request
      // still in flight when autocannon stopped may be stored without its 202 being read: rows ≥ 202s.
      const counted = await countVisits(dbUrl, dataDir);
      add({
        section: result.section,
        measurement: "visits stored / 202 answers (warm-up + run)",
        value: fmt(counted),
        ceiling: fmt(result.acked),
        ratio: "",
        floor: "rows ≥ 202s",
        pass: counted >= result.acked,
      });
      add({
        section: "memory",
        measurement: `server peak RSS under ${kind} ingestion (VmHWM${
          result.reset ? "" : " since start"
        }; max sampled VmRSS ${fmt(result.peakSampled)} MB)`,
        value: `${fmt(result.mem.hwm)} MB`,
        ceiling: "",
        ratio: "",
        // With PGlite the database itself lives in the process, hence its higher floor.
        floor: `≤ ${PEAK_UNDER_INGESTION_MB[kind]} MB`,
        pass: result.mem.hwm <= PEAK_UNDER_INGESTION_MB[kind],
      });
    } finally {
      await server.stop();
      await dropSchema();
    }
  }

  if (ONLY.has("dashboard")) {
    if (!PG_URL) {
      notes.push("dashboard: skipped (set BENCH_DATABASE_URL or DATABASE_URL to a PostgreSQL URL)");
    } else {
      console.error("dashboard (bench/dashboard.ts --json) …");
      try {
        // Its exit code says whether its floors held; its rows (last stdout line) say which, so read them either way.
        const done = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", new URL("bench/dashboard.ts", root).pathname, "--json"],
          env: { DATABASE_URL: PG_URL },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const out = new TextDecoder().decode(done.stdout).trim();
        let last: { rows: { name: string; value: string | number; floor: string | number; pass: boolean }[] };
        try {
          last = JSON.parse(out.split("\n").at(-1)!);
          if (!Array.isArray(last.rows)) throw new Error("no rows");
        } catch {
          throw new Error(
            `exit ${done.code}, no rows line:\n${new TextDecoder().decode(done.stderr).slice(-600)}`,
          );
        }
        for (const r of last.rows) {
          add({
            section: "dashboard",
            measurement: r.name,
            value: String(r.value),
            ceiling: "",
            ratio: "",
            floor: String(r.floor),
            pass: r.pass,
          });
        }
      } catch (error) {
        notes.push(
          `dashboard: NOT MEASURED — bench/dashboard.ts --json failed or is missing: ${
            String(error).slice(0, 400)
          }`,
        );
        add({
          section: "dashboard",
          measurement: "bench/dashboard.ts --json",
          value: "not measured",
          ceiling: "",
          ratio: "",
          floor: "",
          pass: null,
        });
      }
    }
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => console.error(e));
  await Deno.remove(work, { recursive: true }).catch(() => {});
}

// ---------------------------------------------------------------------------------------------- report

const header = ["section", "measurement", "value", "ceiling", "ratio", "floor", "result"];
const table = rows.map((r) => [
  r.section,
  r.measurement,
  r.value,
  r.ceiling,
  r.ratio,
  r.floor,
  r.pass === null ? "" : r.pass ? "PASS" : "FAIL",
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const right = new Set([2, 3, 4]);
const line = (cells: string[]) =>
  "| " + cells.map((c, i) => right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])).join(" | ") + " |";
const loadAvg = await loadAverage();
const cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(/^model name\s*:\s*(.*)$/m)?.[1] ??
  "unknown CPU";
console.log(
  `\ndeno task bench — ${new Date().toISOString()}, ${navigator.hardwareConcurrency} CPUs (${cpu}), ` +
    `${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up, load average ${loadAvg}\n`,
);
console.log(line(header));
console.log(
  "| " + widths.map((w, i) => right.has(i) ? "-".repeat(w - 1) + ":" : "-".repeat(w)).join(" | ") + " |",
);
for (const row of table) console.log(line(row));
for (const note of notes) console.log(`\nnote: ${note}`);
const anyFail = failed || rows.some((r) => r.pass === false);
console.log(
  `\n${
    anyFail
      ? "FAIL: a floor was missed" + (failed ? " (or the bench itself failed, see above)" : "")
      : "PASS: every floor held"
  }`,
);
Deno.exit(anyFail ? 1 : 0);
