// Whole rankings and panel exports: p50/p95 of a ranking's first and a far page, a search, and each panel's
// CSV, this month, over testing/seed.ts's data set in a fresh PostgreSQL schema (DATABASE_URL) or PGlite.
//   deno run -A bench/panels.ts [--visits 200000] [--runs 10]
// Prints numbers only: the dashboard's floors are bench/dashboard.ts's.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createApp } from "../src/app.ts";
import { loadLocales } from "../src/server/locales.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { fakeAssets } from "../testing/app.ts";
import { monthOf, todayIn } from "../src/shared/dashboard_math.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { PANEL_EXPORTS } from "../src/shared/admin_schemas.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "10" }, visits: { type: "string", default: "200000" } },
});
const RUNS = Math.max(1, Number(values.runs));
const ORIGIN = "http://localhost:8000";
const TZ = "America/Sao_Paulo";
const url = Deno.env.get("DATABASE_URL") || undefined;
const schema = url ? `bench_panels_${Date.now()}` : "";
const admin = url ? await openDb({ databaseUrl: url, max: 1 }) : undefined;
await admin?.exec(`create schema ${schema}`);
const db = await openDb(url ? { databaseUrl: url, schema } : {});
try {
  await migrate(db);
  const today = todayIn(TZ);
  const seeded = await seedAnalytics(db, {
    visits: Number(values.visits),
    timeZone: TZ,
    copy: url ? { url, schema } : undefined,
  });
  console.log(`${url ? "PostgreSQL" : "PGlite"}: ${seeded.visits} visits over 90 days`);
  const config = loadConfig({ PUBLIC_ORIGIN: ORIGIN, LOG_LEVEL: "warn", ANALYTICS_TZ: TZ });
  const app = await createApp({ config, db, assets: fakeAssets, locales: await loadLocales() });
  await bootstrapAdmin(db, "bench@example.com", "bench-password");
  const login = await app.request("/api/admin/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email: "bench@example.com", password: "bench-password" }),
  });
  const cookie = login.headers.getSetCookie()[0].split(";")[0];
  const { start, end } = monthOf(today);
  const r = `startDate=${start}&endDate=${end}`;
  const paths = [
    `/api/tracking/rankings/pages?${r}`,
    `/api/tracking/rankings/pages?${r}&limit=25`,
    `/api/tracking/rankings/pages?${r}&limit=25&offset=100`,
    `/api/tracking/rankings/pages?${r}&limit=25&search=pipefy`,
    `/api/tracking/rankings/sources?${r}&limit=25&offset=25`,
    `/api/tracking/rankings/utm-campaign?${r}&limit=25&search=black`,
    ...PANEL_EXPORTS.map((panel) => `/api/tracking/export/${panel}.csv?${r}`),
  ];
  for (const path of paths) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS + 2; i++) {
      const t0 = performance.now();
      const res = await app.request(path, { headers: { cookie } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (i >= 2) times.push(performance.now() - t0);
      bytes = body.byteLength;
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(
      `${path.replace(`?${r}`, "?<this month>")}: p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, ${bytes} bytes`,
    );
  }
} finally {
  await db.close();
  await admin?.exec(`drop schema ${schema} cascade`);
  await admin?.close();
}
