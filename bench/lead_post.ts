// The visitor's POST /api/leads with no lead destination configured, and with all four configured and
// down (nothing listens at their addresses) while the delivery worker runs: p50 and p95 of the answer, so
// the outbox's extra rows in the lead's transaction show what they cost. Through app.request (server time).
//   deno run -A bench/lead_post.ts [--leads 300] [--database-url postgres://…] [--no-worker]
// (default: in-memory PGlite). The worker polls every 500 ms here (2 s in production) while leads arrive
// back to back, so during this flood it works far harder than it would for real traffic.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createApp } from "../src/app.ts";
import { loadLocales } from "../src/server/locales.ts";
import { setLogLevel } from "../src/core/log.ts";
import { leadDeliveryJob } from "../src/services/lead_delivery.ts";
import { startJobs } from "../src/services/jobs.ts";
import { fakeAssets } from "../testing/app.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    leads: { type: "string", default: "300" },
    "database-url": { type: "string" },
    "no-worker": { type: "boolean", default: false },
  },
});
const LEADS = Number(values.leads);
setLogLevel("error");

const DOWN = "http://127.0.0.1:9"; // the discard port: nothing answers
const DESTINATIONS = {
  LEAD_WEBHOOK_URL: `${DOWN}/hook`,
  LEAD_WEBHOOK_SECRET: "whsec_" + btoa("0123456789abcdef0123456789abcdef"),
  PIPEFY_TOKEN: "t",
  PIPEFY_PIPE_ID: "1",
  PIPEFY_FIELDS: "name:nome",
  PIPEFY_API_URL: `${DOWN}/graphql`,
  TRELLO_KEY: "key1",
  TRELLO_TOKEN: "token1",
  TRELLO_LIST_ID: "5f1e0c0ffee0c0ffee0c0ffe",
  TRELLO_API_URL: DOWN,
  SMTP_URL: "smtp://127.0.0.1:9",
  LEAD_NOTIFY_TO: "vendas@example.com",
  LEAD_NOTIFY_FROM: "site@example.com",
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function run(label: string, env: Record<string, string>) {
  const schema = values["database-url"] ? `bench_leads_${crypto.randomUUID().slice(0, 8)}` : undefined;
  if (schema) {
    const admin = await openDb({ databaseUrl: values["database-url"], max: 1 });
    await admin.exec(`create schema ${schema}`);
    await admin.close();
  }
  const db = await openDb({ databaseUrl: values["database-url"], schema });
  await migrate(db);
  const config = loadConfig({ PUBLIC_ORIGIN: "http://localhost:8000", TRUST_PROXY: "1", ...env });
  const app = await createApp({ config, db, assets: fakeAssets, locales: await loadLocales() });
  // --no-worker separates the cost of the extra rows in the lead's transaction from the worker's competition.
  const job = values["no-worker"] ? null : leadDeliveryJob(db, config, { every: 500 });
  const worker = startJobs(job ? [job] : []);
  const times: number[] = [];
  for (let i = 0; i < LEADS + 20; i++) {
    const started = performance.now();
    const res = await app.request("/api/leads", {
      method: "POST",
      body: JSON.stringify({
        name: `Lead ${i}`,
        email: `l${i}@example.com`,
        whatsapp: "11987654321",
        plan: "Pro",
      }),
      headers: {
        "content-type": "application/json",
        origin: "http://localhost:8000",
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
        "x-forwarded-for": `10.${i >> 8}.${i & 255}.1`,
      },
    });
    await res.body?.cancel();
    if (res.status !== 201) throw new Error(`${label}: ${res.status}`);
    if (i >= 20) times.push(performance.now() - started); // the first 20 warm up
  }
  await worker.stop();
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from lead_deliveries");
  if (schema) await db.exec(`drop schema ${schema} cascade`);
  await db.close();
  times.sort((a, b) => a - b);
  const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
  console.log(
    `${label.padEnd(36)} p50 ${percentile(times, 0.5).toFixed(1)} ms  p95 ${
      percentile(times, 0.95).toFixed(1)
    } ms` +
      `  (${LEADS} leads, ${n} delivery rows, load ${load})`,
  );
}

console.log(
  `POST /api/leads on ${values["database-url"] ? "PostgreSQL" : "PGlite (in memory)"}` +
    (values["no-worker"] ? ", delivery worker off" : ", delivery worker on"),
);
await run("no destination configured", {});
await run("4 destinations configured, all down", DESTINATIONS);
