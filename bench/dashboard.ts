// Dashboard latency: seeds 100,000 visits (plus the clicks, conversions and leads they lead to) over one
// 31-day month into a fresh database — PGlite, or PostgreSQL when DATABASE_URL is set (in a schema of its
// own, dropped afterwards) — then times every dashboard endpoint through app.request and prints p50/p95.
//   deno run -A bench/dashboard.ts [--runs 30] [--visits 100000]
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { type Db, openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createApp } from "../src/app.ts";
import { loadLocales } from "../src/server/locales.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { fakeAssets } from "../src/testing/app.ts";
import { seedDashboard } from "../src/testing/dashboard_seed.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "30" }, visits: { type: "string", default: "100000" } },
});
const RUNS = Number(values.runs);
const VISITS = Number(values.visits);
const ORIGIN = "http://localhost:8000";
const url = Deno.env.get("DATABASE_URL");

let db: Db;
let cleanup = async () => {};
if (url) {
  const schema = `bench_${Date.now()}`;
  const admin = await openDb({ databaseUrl: url, max: 1 });
  await admin.exec(`create schema ${schema}`);
  db = await openDb({ databaseUrl: url, schema, max: 4 });
  cleanup = async () => {
    await db.close();
    await admin.exec(`drop schema ${schema} cascade`);
    await admin.close();
  };
} else {
  db = await openDb({});
  cleanup = () => db.close();
}
await migrate(db);

// Two months: the measured one (December 2026, 31 days) holds VISITS visits; the month before, for the
// previous-period comparison, holds as many.
let t0 = performance.now();
const seeded = await seedDashboard(db, {
  start: "2026-11-01",
  days: 61,
  visits: VISITS * 2 - VISITS * 2 / 61,
});
const seedSeconds = (performance.now() - t0) / 1000;
const inRange = (await db.query<{ n: number }>(
  `select count(*)::int as n from visits where occurred_at >= '2026-12-01T00:00:00-03:00'
     and occurred_at < '2027-01-01T00:00:00-03:00'`,
))[0].n;
// The lead list must stay smooth with 50,000 leads: top the table up to that many, most in the range.
const missing = 50_000 - seeded.leads;
await db.query(
  `insert into leads (submitted_at, name, email, whatsapp, plan, plan_label, utm_source)
   select timestamptz '2026-12-01T03:00:00Z' + (i % 31) * interval '1 day' + (i % 1440) * interval '1 minute',
          'Cliente ' || i, 'cliente' || i || '@exemplo.com.br', '+55 (11) 9' || lpad(i::text, 8, '0'),
          (array['micro', 'pro', 'premium'])[1 + i % 3], '', (array['google', 'facebook', null])[1 + i % 3]
     from generate_series(1, $1::int) as i`,
  [missing],
);
await db.exec("analyze");

const config = loadConfig({ PUBLIC_ORIGIN: ORIGIN, LOG_LEVEL: "warn" });
const app = await createApp({ config, db, assets: fakeAssets, locales: await loadLocales() });
await bootstrapAdmin(db, "bench@example.com", "bench-password");
const login = await app.request("/api/admin/login", {
  method: "POST",
  headers: { "content-type": "application/json", origin: ORIGIN },
  body: JSON.stringify({ email: "bench@example.com", password: "bench-password" }),
});
const cookie = login.headers.getSetCookie()[0].split(";")[0];

const R = "startDate=2026-12-01&endDate=2026-12-31";
const endpoints = [
  `/api/tracking/summary?${R}`,
  `/api/tracking/stats?${R}`,
  `/api/leads/analytics?${R}`,
  `/api/tracking/analytics?${R}`,
  `/api/tracking/unique-visits?${R}`,
  `/api/tracking/rankings/utm-source?${R}`,
  `/api/tracking/rankings/utm-campaign?${R}`,
  `/api/tracking/rankings/pages?${R}`,
  `/api/tracking/conversion-by-utm-source?${R}`,
  `/api/leads?${R}&limit=25&offset=0`,
  `/api/leads?${R}&q=silva&limit=25`,
  `/api/leads?${R}&limit=25&offset=40000`,
  `/api/leads?q=98765&limit=25`,
  `/api/leads`,
  `/api/leads/export.csv?${R}`,
  `/api/admin/check-auth`,
];

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

console.log(
  `database: ${db.kind}; seeded ${seeded.visits} visits, ${seeded.clicks} clicks, ${seeded.conversions} conversions, ` +
    `${seeded.leads} leads over 61 days in ${
      seedSeconds.toFixed(1)
    } s; ${inRange} visits in the 31-day range`,
);
console.log(`${RUNS} timed runs per endpoint after 2 warm-ups\n`);
console.log("| endpoint | p50 ms | p95 ms | max ms | bytes |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const path of endpoints) {
  let bytes = 0;
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    t0 = performance.now();
    const res = await app.request(path, { headers: { cookie } });
    const body = await res.arrayBuffer();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${new TextDecoder().decode(body)}`);
    bytes = body.byteLength;
    if (i >= 2) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  console.log(`| ${path} | ${f(pct(times, 50))} | ${f(pct(times, 95))} | ${f(times.at(-1)!)} | ${bytes} |`);
}
await cleanup();
