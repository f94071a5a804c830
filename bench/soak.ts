// Soak: mixed traffic (pages, static files, tracking, leads, the dashboard) at a fixed rate against the real
// server for a long stretch, to show it keeps answering (no 5xx), loses nothing and does not grow.
//
//   deno run -A bench/soak.ts [--minutes 10] [--rate 100] [--db pglite|postgres] [--json]
//
// The server is src/main.ts in its own process with the V8 flags of `deno task start`; PostgreSQL runs when
// --db postgres and BENCH_DATABASE_URL (or DATABASE_URL) is set, in a fresh schema dropped afterwards. The load
// is open-loop: requests leave on the clock whatever the answers do, with at most 128 in flight; one that
// finds no room is counted as "late" instead of being queued. Exits 1 on any 5xx, network error, lost or
// doubled lead, unstored acknowledged visit, a non-zero exit of the server, or memory that does not stay flat.
import { parseArgs } from "node:util";
import { openDb } from "../src/db/client.ts";
import { pagePath, PUBLIC_PAGES } from "../src/shared/routes.ts";
import { LANGS } from "../src/shared/languages.ts";
import { freePort, startServer } from "../testing/server.ts";
import { LOAD_ORIGIN } from "../testing/load.ts";
import { copyDataDir } from "../testing/db_template.ts";
import { type Kind, liveHeapMb, rssSampler, summarize, Tally, warmMinute } from "./soak_report.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    minutes: { type: "string", default: "10" },
    rate: { type: "string", default: "100" },
    db: { type: "string", default: "pglite" },
    json: { type: "boolean", default: false },
  },
});
const DURATION_MS = Number(values.minutes) * 60_000;
const RATE = Number(values.rate);
const MAX_IN_FLIGHT = 128;
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") || Deno.env.get("DATABASE_URL") || "";
if (values.db === "postgres" && !PG_URL) throw new Error("--db postgres needs BENCH_DATABASE_URL");
const ADMIN = { email: "soak@example.com", password: "soak password 2026" };
const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const root = new URL("../", import.meta.url);
const manifest = JSON.parse(
  await Deno.readTextFile(new URL("static/assets/manifest.json", root)).catch(() => {
    throw new Error("no client build: run `deno task build` first");
  }),
);
// Every script of the build (an entry may be styles only, without one).
const assets = [
  ...new Set(
    Object.values(manifest.entries as Record<string, { js?: string; imports?: string[] }>)
      .flatMap((entry) => [entry.js, ...(entry.imports ?? [])]),
  ),
].filter((path): path is string => Boolean(path));
const pages = PUBLIC_PAGES.flatMap((page) => LANGS.map((lang) => pagePath(page, lang)));

// The database: PGlite in a temporary DATA_DIR, or a fresh PostgreSQL schema. The DATA_DIR starts as a copy of
// the migrated template (testing/db_template.ts): the soak measures a running server, not its first initdb,
// which would add about 7 s to each run.
const work = await Deno.makeTempDir({ prefix: "soak-" });
const dataDir = `${work}/data`;
let dbUrl = "";
let dropSchema = async () => {};
if (values.db !== "postgres") await copyDataDir(dataDir);
else {
  const schema = `soak_${Date.now()}`;
  const admin = await openDb({ databaseUrl: PG_URL, max: 1 });
  await admin.exec(`create schema ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set("search_path", schema);
  dbUrl = url.href;
  dropSchema = async () => {
    await admin.exec(`drop schema ${schema} cascade`);
    await admin.close();
  };
}

const inspectorPort = freePort();
const server = await startServer({
  denoFlags: [
    `--inspect=127.0.0.1:${inspectorPort}`,
    "--v8-flags=--max-semi-space-size=8,--max-old-space-size=1024",
  ],
  env: {
    PUBLIC_ORIGIN: LOAD_ORIGIN,
    TRUST_PROXY: "1",
    LOG_LEVEL: "warn",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATA_DIR: dataDir,
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
  },
});
const rss = rssSampler(server.pid, 5_000);

let address = 0;
const nextAddress = () => (++address, `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`);
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: {
      "content-type": "application/json",
      origin: LOAD_ORIGIN,
      "user-agent": UA,
      "x-forwarded-for": nextAddress(),
      ...headers,
    },
    signal: AbortSignal.timeout(10_000),
  });

let cookie = "";
async function signIn(): Promise<void> {
  const res = await post("/api/admin/login", ADMIN);
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
}
await signIn();

const today = new Date().toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 8)}01`;
const range = `startDate=${monthStart}&endDate=${today}`;
const dashboard = [
  `/api/tracking/summary?${range}`,
  `/api/tracking/stats?${range}`,
  `/api/leads/analytics?${range}`,
  `/api/tracking/analytics?${range}`,
  `/api/tracking/unique-visits?${range}`,
  `/api/leads?page=1&${range}`,
  `/api/tracking/rankings/utm-source?${range}`,
  `/api/tracking/rankings/utm-campaign?${range}`,
  `/api/tracking/rankings/pages?${range}`,
  `/api/tracking/conversion-by-utm-source?${range}`,
  `/api/leads/export.csv?${range}`,
];
const SOURCES = ["google", "facebook", "instagram", "newsletter", null];
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];
const tracked = () => ({
  source: pick(pages),
  sessionId: `soak-${Math.floor(Math.random() * 5000)}`,
  utmSource: pick(SOURCES),
  utmCampaign: pick(["black-friday", "always-on", null]),
  utmMedium: pick(["cpc", "social", null]),
});

const leads = new Map<string, number>(); // idempotency key -> accepted answers
let leadCount = 0;

/** One request of the mix (WEIGHTS below); resolves to its status. */
async function one(kind: Kind): Promise<number> {
  let res: Response;
  switch (kind) {
    case "page":
      res = await fetch(server.url + pick(pages), {
        headers: { "accept-encoding": "gzip, br", "user-agent": UA },
        signal: AbortSignal.timeout(10_000),
      });
      break;
    case "asset":
      res = await fetch(server.url + pick(assets), {
        headers: { "accept-encoding": "br" },
        signal: AbortSignal.timeout(10_000),
      });
      break;
    case "visit":
      res = await post("/api/tracking/visit", { ...tracked(), utmTerm: null, utmContent: null });
      break;
    case "click":
    case "conversion":
      res = await post(`/api/tracking/${kind}`, tracked());
      break;
    case "lead": {
      const key = `soak-${Date.now()}-${++leadCount}`;
      leads.set(key, 0);
      res = await post("/api/leads", {
        name: `Soak visitor ${leadCount}`,
        email: `soak.${leadCount}@example.com`,
        whatsapp: "+55 11 91234-5678",
        plan: pick(["micro", "pro", "premium"]),
        utmSource: pick(SOURCES),
        idempotencyKey: key,
      });
      if (res.status === 200 || res.status === 201) leads.set(key, leads.get(key)! + 1);
      break;
    }
    case "dashboard":
      res = await fetch(server.url + pick(dashboard), {
        headers: { cookie },
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status === 401) await signIn();
      break;
  }
  await res.body?.cancel();
  return res.status;
}

// Roughly a marketing site's day: mostly page views and their tracking, a lead now and then, and one
// administrator reading the dashboard (each dashboard request is a real query over everything stored so far;
// on PGlite it runs on the server's one JavaScript thread).
const WEIGHTS: [Kind, number][] = [
  ["page", 45],
  ["asset", 8],
  ["visit", 25],
  ["click", 10],
  ["conversion", 4],
  ["lead", 6],
  ["dashboard", 2],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
function kindAt(r: number): Kind {
  for (const [kind, weight] of WEIGHTS) if ((r -= weight) < 0) return kind;
  return "page";
}

const tally = new Tally();
let inFlight = 0;
const pending = new Set<Promise<void>>();
const started = performance.now();
// The live heap once the warm-up is over (a full collection through the inspector, under the load).
const heapAtWarm = new Promise<number>((resolve) =>
  setTimeout(() => resolve(liveHeapMb(inspectorPort)), warmMinute(DURATION_MS / 60_000) * 60_000)
);
let due = 0;
console.error(
  `soak: ${values.minutes} min at ${RATE} requests/s on ${values.db}, server pid ${server.pid} …`,
);
// The clock fires every 10 ms and sends what the rate says is due by now, so the rate holds on average.
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const elapsed = performance.now() - started;
    if (elapsed >= DURATION_MS) {
      clearInterval(timer);
      return resolve();
    }
    for (; due < (elapsed / 1000) * RATE; due++) {
      // The mix spread evenly rather than drawn at random (the fractional parts of n times the golden ratio):
      // every kind comes in its share even in a short run, where 306 random draws once had no dashboard request.
      const kind = kindAt(((due * 0.6180339887498949) % 1) * TOTAL_WEIGHT);
      if (inFlight >= MAX_IN_FLIGHT) {
        tally.late++;
        continue;
      }
      inFlight++;
      const t0 = performance.now();
      const done = one(kind)
        .then((status) => tally.add(kind, status, performance.now() - t0))
        .catch((error) => {
          tally.add(kind, 0, performance.now() - t0);
          console.error(`${kind}: no answer: ${error}`);
        })
        .finally(() => {
          inFlight--;
          pending.delete(done);
        });
      pending.add(done);
    }
  }, 10);
});
await Promise.all(pending);
const heap = { warm: await heapAtWarm, end: await liveHeapMb(inspectorPort) };
const memory = rss.stop();
const exitCode = await server.stop();

// What was acknowledged must be stored: every accepted lead exactly once, every 202 visit a row.
const db = await openDb(dbUrl ? { databaseUrl: dbUrl, max: 1 } : { dataDir });
const storedLeads = await db.query<{ key: string; n: number }>(
  "select idempotency_key as key, count(*)::int as n from leads group by 1",
);
const [{ visits }] = await db.query<{ visits: number }>("select count(*)::int as visits from visits");
await db.close();
await dropSchema();
await Deno.remove(work, { recursive: true }).catch(() => {});

const stored = new Map(storedLeads.map((l) => [l.key, l.n]));
const accepted = [...leads].filter(([, n]) => n > 0).map(([key]) => key);
const report = summarize({
  tally,
  memory,
  heap,
  exitCode,
  minutes: Number(values.minutes),
  rate: RATE,
  db: values.db,
  leads: {
    accepted: accepted.length,
    lost: accepted.filter((key) => !stored.has(key)).length,
    doubled: [...stored.values()].filter((n) => n > 1).length,
  },
  visits: { acknowledged: tally.status("visit", 202), stored: visits },
});
console.log(report.text);
if (values.json) console.log(JSON.stringify(report.figures));
Deno.exit(report.pass ? 0 : 1);
