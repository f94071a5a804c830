// The seed writes only what production can: every invariant of testing/invariants.ts holds over a seeded
// database (an invariant that production itself could break would be wrong: src/routes/api/metrics_test.ts
// checks them over a database written through the API only).
import assert from "node:assert/strict";
import { INVARIANTS, invariantViolations } from "../../testing/invariants.ts";
import { seededTest } from "../../testing/seeded.ts";
// The seed's 45 days span three months, and today is still open.
import { NOW, SEEDED, TZ } from "../../testing/rolled_filters.ts";

seededTest(
  "seed: a seeded database breaks none of production's invariants",
  SEEDED,
  async (db, _kind, seeded) => {
    // Enough of everything that each rule has rows to look at.
    assert.ok(seeded.leads >= 60, `${seeded.leads} leads`);
    assert.ok(seeded.conversions > 0 && seeded.conversions <= seeded.leads);
    const counts = await db.query<{ leads: number; firsts: number; withConversion: number }>(
      `select count(*)::int as leads,
            count(*) filter (where first_touch_at < (select min(occurred_at) from visits v
                                                      where v.session_id = leads.session_id))::int as firsts,
            count(*) filter (where exists (select 1 from conversions c where c.session_id = leads.session_id))::int
              as "withConversion"
       from leads`,
    );
    // Some first touches are an earlier session than the one that converted; some reports were lost.
    assert.ok(counts[0].firsts > 0, "no lead whose first touch is an earlier session");
    assert.ok(counts[0].withConversion < counts[0].leads, "every lead has its conversion");
    assert.deepEqual(
      await invariantViolations(db, { timeZone: TZ, attributionDays: 30, now: NOW }),
      {},
    );
  },
);

seededTest("seed invariants: each rule catches what it forbids", SEEDED, async (db) => {
  const context = { timeZone: TZ, attributionDays: 30, now: NOW };
  assert.deepEqual(await invariantViolations(db, context), {});
  // One break per rule, each undone before the next (a transaction rolled back).
  const breaks: [string, string][] = [
    [
      "conversion without a stored lead",
      "update conversions set session_id = 'nobody' where id = (select min(id) from conversions)",
    ],
    [
      "conversion before its lead",
      "update conversions set occurred_at = occurred_at - interval '1 hour' where id = (select min(id) from conversions)",
    ],
    [
      "conversion channel not its lead's",
      "update conversions set channel = 'display' where id = (select min(id) from conversions)",
    ],
    [
      "lead plan not its label's",
      "update leads set plan = 'micro', plan_label = 'Pro' where id = (select min(id) from leads)",
    ],
    [
      "lead without its plan click",
      "update leads set session_id = null where id = (select min(id) from leads)",
    ],
    ["lead fields", "update leads set email = 'nada' where id = (select min(id) from leads)"],
    [
      "click without a page view",
      "update clicks set occurred_at = occurred_at - interval '1 day' where id = (select min(id) from clicks)",
    ],
    [
      "WhatsApp click off its page",
      "update clicks set source = '/nenhuma' where id = (select min(id) from clicks where kind = 'whatsapp')",
    ],
    [
      "event outside its session's touch",
      "update clicks set utm_source = 'outra' where id = (select min(id) from clicks)",
    ],
    [
      "lead's last touch not its session's",
      "update leads set last_channel = 'display' where id = (select min(id) from leads)",
    ],
    [
      "lead's first touch not the visitor's first",
      "update leads set first_touch_at = first_touch_at + interval '1 second' where id = (select min(id) from leads)",
    ],
    [
      "event or lead in the future",
      "update visits set occurred_at = now() + interval '1 year' where id = (select min(id) from visits)",
    ],
    ["visitor key shape", "update clicks set visitor_key = 'k' where id = (select min(id) from clicks)"],
    ["daily totals not the raw rows'", "delete from visits where id = (select min(id) from visits)"],
    [
      "channel and source roll-ups not the raw rows'",
      "update clicks set channel = 'display' where id = (select min(id) from clicks)",
    ],
  ];
  assert.deepEqual(breaks.map(([name]) => name).sort(), INVARIANTS.map((i) => i.name).sort());
  class Undo {
    constructor(readonly found: Record<string, unknown>) {}
  }
  for (const [name, sql] of breaks) {
    // Thrown to roll the break back once it has been looked at.
    const undo = await db.transaction(async (tx) => {
      await tx.exec(sql);
      throw new Undo(await invariantViolations(tx, context));
    }).catch((e) => e);
    assert.ok(undo instanceof Undo, `${name}: ${undo}`);
    assert.ok(name in undo.found, `${name} not caught: ${JSON.stringify(Object.keys(undo.found))}`);
  }
  assert.deepEqual(await invariantViolations(db, context), {});
});
