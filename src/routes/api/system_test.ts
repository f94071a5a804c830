import assert from "node:assert/strict";
import { appTest } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { recordJobRun } from "../../db/job_runs.ts";
import { noteDeliveryOutcome } from "../../db/delivery_alerts.ts";
import { systemHealth } from "../../shared/admin_schemas.ts";

appTest(
  "system: the dashboard's Saúde do sistema gets the version, each job's last run and failing destinations",
  async (t) => {
    assert.equal((await t.request("/api/admin/system")).status, 401);
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    const at = new Date(Date.now() - 60_000);
    await recordJobRun(t.db, {
      name: "purge-raw-events",
      everyMs: 3_600_000,
      startedAt: at,
      finishedAt: at,
      runs: 1,
      failedRuns: 0,
      durationMs: 41,
      status: "done",
      result: { visits: 1200, clicks: 30 },
    });
    await noteDeliveryOutcome(t.db, "trello", false, at);
    await noteDeliveryOutcome(t.db, "trello", false, at);
    const res = await getAs(t, cookie, "/api/admin/system");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const body = systemHealth.parse(await res.json());
    assert.equal(body.version, "dev");
    assert.deepEqual(body.jobs.map((j) => [j.name, j.status, j.result, j.overdue, j.durationMs]), [
      ["purge-raw-events", "done", { visits: 1200, clicks: 30 }, false, 41],
    ]);
    assert.deepEqual(body.failingDestinations, [{ destination: "trello", since: at.toISOString() }]);
  },
);
