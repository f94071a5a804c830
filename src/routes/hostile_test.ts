// The hostile-input suite (issue 7): every case in cases_*.ts against the real app, on PGlite and (with
// TEST_DATABASE_URL) PostgreSQL. It owns the count: cases tried, and 5xx seen (must be 0).
import assert from "node:assert/strict";
import { dbKinds } from "../../testing/db.ts";
import { testApp } from "../../testing/app.ts";
import { ADMIN_EMAIL, seedAdmin, signIn } from "../../testing/admin.ts";
import {
  type Ctx,
  type HostileCase,
  LEAD,
  type Outcome,
  runCase,
  send,
} from "../../testing/hostile/harness.ts";
import { PUBLIC_CASES } from "../../testing/hostile/cases_public.ts";
import { BODY_CASES } from "../../testing/hostile/cases_bodies.ts";
import { AUTH_CASES } from "../../testing/hostile/cases_auth.ts";
import { ADMIN_CASES } from "../../testing/hostile/cases_admin.ts";
import { SITE_CASES } from "../../testing/hostile/cases_site.ts";
import { DELIVERY_CASES } from "../../testing/hostile/cases_deliveries.ts";

export const CASES: HostileCase[] = [
  ...PUBLIC_CASES,
  ...BODY_CASES,
  ...AUTH_CASES,
  ...ADMIN_CASES,
  ...SITE_CASES,
  ...DELIVERY_CASES,
];
const MIN_CASES = 60;

Deno.test(`hostile input: at least ${MIN_CASES} cases, each named once`, () => {
  assert.ok(CASES.length >= MIN_CASES, `${CASES.length} cases`);
  const names = CASES.map((c) => `[${c.category}] ${c.name}`);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], "duplicate case names");
});

function tally(items: (string | number)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[item] = (out[item] ?? 0) + 1;
  return out;
}

for (const kind of dbKinds()) {
  Deno.test({
    name: `${kind}: hostile input: no case gives a 5xx, leaks internals or changes stored data`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(test) {
      let clock = new Date("2026-11-10T12:00:00Z");
      // Meta configured (never reachable), so events really are queued and their rows checked.
      const env = {
        META_PIXEL_ID: "123456789012345",
        META_ACCESS_TOKEN: "t",
        META_GRAPH_URL: "http://127.0.0.1:9/v1",
      };
      const t = await testApp(kind, { now: () => clock, env });
      await seedAdmin(t.db);
      const cookie = await signIn(t);
      const leadIds: number[] = [];
      for (const lead of [{ ...LEAD, name: "Maria Souza", whatsapp: "(11) 98888-7777" }, LEAD]) {
        const res = await send.json({ t } as Ctx, "/api/leads", lead);
        leadIds.push((await res.json()).id);
      }
      const [{ id: adminId }] = await t.db.query<{ id: number }>("select id from admins where email = $1", [
        ADMIN_EMAIL,
      ]);
      const ctx: Ctx = {
        t,
        cookie,
        adminId: Number(adminId),
        leadIds,
        advance: (ms) => void (clock = new Date(clock.getTime() + ms)),
      };
      // One step per case, so a failure names the case; the steps run in order on the one app and clock.
      const outcomes: Outcome[] = [];
      for (const c of CASES) {
        await test.step(`[${c.category}] ${c.name}`, async () => {
          const outcome = await runCase(c, ctx);
          outcomes.push(outcome);
          assert.deepEqual(outcome.problems, [], `status ${outcome.status}`);
        });
      }
      const fivexx = outcomes.filter((o) => o.status >= 500).length;
      console.log(
        `hostile input (${kind}): ${outcomes.length} cases tried, ${fivexx} 5xx seen; statuses ${
          JSON.stringify(tally(outcomes.map((o) => o.status)))
        }; categories ${JSON.stringify(tally(CASES.map((c) => c.category)))}`,
      );
      assert.equal(outcomes.length, CASES.length, "every case ran to its outcome");
      assert.equal(fivexx, 0, "5xx seen");
    },
  });
}
