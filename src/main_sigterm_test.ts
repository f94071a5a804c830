// Fault: SIGTERM while the server is under a tracking and lead load. Requests in flight must finish, the
// process must exit 0 within 10 s, and every event or lead it acknowledged must be in the database afterwards
// (tracking events are written in batches: the last ones are committed before the database closes).
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDb } from "./db/client.ts";
import { countAnswers, LOAD_ORIGIN, startLoad } from "../testing/load.ts";
import { startServer } from "../testing/server.ts";
import { copyDataDir } from "../testing/db_template.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const kind of TEST_DATABASE_URL ? ["pglite", "postgres"] as const : ["pglite"] as const) {
  Deno.test({
    name:
      `faults (${kind}): SIGTERM under load — in-flight requests finish, exit 0 within 10 s, nothing acknowledged lost`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "sigterm_" });
      const schema = `sigterm_${Deno.pid}_${crypto.randomUUID().slice(0, 8)}`;
      const env: Record<string, string> = { PUBLIC_ORIGIN: LOAD_ORIGIN, TRUST_PROXY: "1", LOG_LEVEL: "warn" };
      const admin = kind === "postgres" ? await openDb({ databaseUrl: TEST_DATABASE_URL, max: 1 }) : null;
      if (admin) {
        await admin.exec(`create schema ${schema}`);
        const url = new URL(TEST_DATABASE_URL!);
        url.searchParams.set("options", `-csearch_path=${schema}`);
        env.DATABASE_URL = url.href;
      } else {
        env.DATA_DIR = join(dir, "data");
        await copyDataDir(env.DATA_DIR); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
      }
      try {
        const server = await startServer({ env });
        const load = startLoad(server.url, { visitors: 24, browsers: 6, leadEveryMs: 20 });
        // Signal once the load is real (over 100 visits acknowledged), however slow the machine is today.
        const loadedBy = Date.now() + 30_000;
        while (load.answers.filter((a) => a.kind === "visit" && a.status === 202).length <= 100) {
          if (Date.now() > loadedBy) break; // asserted below: "too little load"
          await sleep(50);
        }
        await sleep(200); // and with requests in flight
        const signalledAt = Date.now();
        const code = await server.stop(); // SIGTERM, then wait for the exit
        const exitMs = Date.now() - signalledAt;
        await load.stop();

        // Count what was stored, with the server gone.
        const db = admin ?? await openDb({ dataDir: env.DATA_DIR });
        const prefix = admin ? `${schema}.` : "";
        const [{ visits }] = await db.query<{ visits: number }>(
          `select count(*)::int as visits from ${prefix}visits`,
        );
        const keys = new Set(
          (await db.query<{ key: string }>(`select idempotency_key as key from ${prefix}leads`)).map((r) =>
            r.key
          ),
        );
        if (!admin) await db.close();

        const acked = load.answers.filter((a) => a.kind === "visit" && a.status === 202);
        const ackedLeads = load.answers.filter((a) => a.kind === "lead" && a.status === 201);
        const inFlightAtSignal = load.answers.filter((a) => a.at < signalledAt && a.at + a.ms > signalledAt);
        const lostLeads = ackedLeads.filter((a) => !keys.has(a.key!));
        console.log(
          `sigterm (${kind}): exit code ${code} after ${exitMs} ms; answers ${
            JSON.stringify(countAnswers(load.answers))
          }; ${inFlightAtSignal.length} requests in flight at the signal, ${
            inFlightAtSignal.filter((a) => a.status >= 200 && a.status < 300).length
          } of them answered 2xx; visits acknowledged ${acked.length}, stored ${visits}; leads acknowledged ${ackedLeads.length}, stored ${keys.size}, lost ${lostLeads.length}`,
        );
        assert.equal(code, 0, server.output().slice(-3000));
        assert.ok(exitMs < 10_000, `exit took ${exitMs} ms`);
        assert.ok(acked.length > 100, `too little load: ${acked.length} visits acknowledged`);
        assert.ok(visits >= acked.length, `visits acknowledged ${acked.length}, stored ${visits}`);
        assert.equal(lostLeads.length, 0);
        // Requests already being served when the signal came were answered, not cut off.
        assert.ok(inFlightAtSignal.length > 0, "no request was in flight at the signal");
        assert.ok(
          !inFlightAtSignal.some((a) => a.status >= 500),
          JSON.stringify(countAnswers(inFlightAtSignal)),
        );
        assert.ok(
          !load.answers.some((a) => a.status >= 500 && a.status !== 503),
          JSON.stringify(countAnswers(load.answers)),
        );
      } finally {
        if (admin) {
          await admin.exec(`drop schema ${schema} cascade`).catch(() => {});
          await admin.close();
        }
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  });
}
