// The clicks and leads under a filter answered through their session (page, UTM content and term, entry page)
// are the same whether they are found by the session keys the roll-up job wrote (db/session_keys.ts) or by
// looking through the page views (what every event needs before the first run, and today's events after it),
// over final days, the open day, cuts, two months and without a period; a click or lead counts under its
// session's values of its own day and the day before; purges and erasures take the keys with the events.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seededTest } from "../../testing/seeded.ts";
import { runRollups } from "../services/rollups.ts";
import type { Db } from "./client.ts";
import {
  filteredChannelActions,
  filteredConversionBySource,
  filteredDailyClicks,
  filteredDailyLeads,
  filteredEventTotals,
  filteredLeadsByChannel,
  filteredWhatsapp,
  filteredWhatsappTotal,
} from "./filtered.ts";
import { countLeads, listLeads } from "./lead_list.ts";
import { deleteLeadsById } from "./lgpd.ts";
import { forgetClickKeysBefore } from "./session_keys.ts";
import { NOW, SEEDED, TZ } from "../../testing/rolled_filters.ts";
import type { Filters } from "../shared/filters.ts";

const PERIODS: { start: string; end: string; until: string | null }[] = [
  { start: "2026-11-01", end: "2026-11-30", until: null },
  { start: "2026-11-02", end: "2026-12-02", until: null },
  { start: "2026-12-02", end: "2026-12-02", until: "11:30:00" },
  { start: "2026-11-01", end: "2026-11-02", until: "15:00:00" },
];

/** The most viewed value of each filter a click or lead answers through its session, and two together. */
async function sessionFilters(db: Db): Promise<Filters[]> {
  const top = async (expr: string, where: string) =>
    (await db.query<{ v: string }>(
      `select ${expr} as v from visits where ${where} group by 1 order by count(*) desc, 1 limit 1`,
    )).map((r) => r.v);
  const out: Filters[] = [];
  for (const v of await top("source", "true")) out.push({ page: v });
  for (const v of await top("utm_content", "utm_content <> ''")) out.push({ utm_content: v });
  for (const v of await top("utm_term", "utm_term <> ''")) out.push({ utm_term: v });
  for (const v of await top("split_part(source, '?', 1)", "entry")) out.push({ entry_page: v });
  out.push({ page: out[0].page!, channel: "paid_social" });
  return out;
}

/** Rows whose order a report leaves open, in one order. */
const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

/** Every report of clicks and leads under `f`, over every period. */
async function reports(db: Db, filters: Filters[]) {
  const out: unknown[] = [];
  for (const f of filters) {
    for (const p of PERIODS) {
      const range = { start: p.start, end: p.end };
      out.push(
        await filteredEventTotals(db, range, TZ, p.until, f),
        await filteredWhatsappTotal(db, range, TZ, p.until, f),
        await filteredDailyClicks(db, range, TZ, f),
        await filteredDailyLeads(db, range, TZ, f),
        sorted(await filteredChannelActions(db, range, TZ, f)),
        sorted(await filteredLeadsByChannel(db, range, TZ, f)),
        await filteredConversionBySource(db, range, TZ, f),
      );
      const whatsapp = await filteredWhatsapp(db, range, TZ, f, 10);
      out.push(
        whatsapp.daily,
        whatsapp.pages,
        sorted(whatsapp.byChannel),
        sorted(whatsapp.bySource),
        (await listLeads(db, { range, filters: f, limit: 20 }, TZ)).map((l) => l.id),
        await countLeads(db, { range, filters: f }, TZ),
      );
    }
    out.push(await countLeads(db, { filters: f }, TZ));
  }
  return out;
}

seededTest(
  "session keys: clicks and leads by their keys are the ones found through the page views",
  SEEDED,
  async (db) => {
    const [{ until }] = await db.query<{ until: Date }>("select until from session_keys_state");
    assert.equal(
      new Date(until).toISOString(),
      "2026-12-02T03:00:00.000Z",
      "keys until today's local midnight",
    );
    const keyed = await db.query<{ event: string; n: number }>(
      "select event, count(distinct id)::int as n from session_keys group by 1 order by 1",
    );
    assert.ok(keyed.length === 2 && keyed.every((k) => k.n > 30), JSON.stringify(keyed));
    const filters = await sessionFilters(db);
    assert.equal(filters.length, 5);
    const byKeys = await reports(db, filters);
    const totals = byKeys.filter((r): r is { clicks: number; leads: number } =>
      typeof r === "object" && r !== null && "clicks" in r && "leads" in r && !("utmSource" in r)
    );
    const [clicks, leads] = [
      totals.reduce((n, t) => n + t.clicks, 0),
      totals.reduce((n, t) => n + t.leads, 0),
    ];
    assert.ok(clicks > 200 && leads > 30, `only ${clicks} clicks and ${leads} leads counted`);
    // Without the state, no event has keys: every one is looked up in the page views, with the same figures.
    await db.query("delete from session_keys_state");
    assert.deepEqual(await reports(db, filters), byKeys);
    // The keys are what answers: with the state back and the keys gone, the keyed days count no click, and
    // their leads come from the keys' sums (db/filter_leads.ts) under one filter, from the keys under two.
    await db.query(`insert into session_keys_state (until) values ('2026-12-02T03:00:00Z')`);
    await db.query("delete from session_keys");
    const f = filters[0], november = { start: "2026-11-01", end: "2026-11-30" };
    const before = byKeys[0] as { leads: number }; // the first report: f over PERIODS[0], November
    assert.deepEqual(await filteredEventTotals(db, november, TZ, null, f), {
      clicks: 0,
      conversions: before.leads,
      leads: before.leads,
    });
    assert.equal((await filteredEventTotals(db, november, TZ, null, filters[4])).leads, 0);
    await db.query("delete from daily_filter_leads");
    assert.equal((await filteredEventTotals(db, november, TZ, null, f)).leads, 0);
    // The first run after the migration writes every kept day's keys.
    await db.query("insert into session_keys_backfill default values");
    await runRollups(db, TZ, new Date(NOW.getTime() + 10 * 60_000));
    assert.deepEqual(await reports(db, filters), byKeys);
  },
);

dbTest(
  "session keys: an event counts under its session's values of its day and the day before",
  async (db) => {
    const visit = (at: string, session: string, page: string, entry = false) =>
      db.query(
        `insert into visits (occurred_at, visitor_key, session_id, source, entry) values ($1, 'k', $2, $3, $4)`,
        [at, session, page, entry],
      );
    const click = (at: string, session: string) =>
      db.query(
        `insert into clicks (occurred_at, visitor_key, session_id, source, kind) values ($1, 'k', $2, 'plan_pro', 'plan')`,
        [at, session],
      );
    const lead = async (at: string, session: string | null) =>
      (await db.query<{ id: number }>(
        `insert into leads (name, email, whatsapp, plan, submitted_at, session_id)
       values ('Ana Lima', 'ana@example.com', '+5511987654321', 'pro', $1, $2) returning id`,
        [at, session],
      ))[0].id;
    // Local days (UTC-3). s1 entered on /pt-br on 10/11 and clicked on 11/11 (counts) and on 13/11 (too late);
    // s2 clicked and left a lead on 12/11 before its only page view that day, /pt-br/pipefy (counts); s3 saw
    // /pt-br on 14/11 and clicked; a lead without a session matches no page.
    await visit("2026-11-10T23:00:00Z", "s1", "/pt-br", true);
    await click("2026-11-11T12:00:00Z", "s1");
    await click("2026-11-13T12:00:00Z", "s1");
    await click("2026-11-12T12:00:00Z", "s2");
    const s2Lead = await lead("2026-11-12T12:05:00Z", "s2");
    await visit("2026-11-12T13:00:00Z", "s2", "/pt-br/pipefy");
    await visit("2026-11-14T12:00:00Z", "s3", "/pt-br");
    await click("2026-11-14T12:03:00Z", "s3");
    await lead("2026-11-14T12:04:00Z", null);
    const november = { start: "2026-11-01", end: "2026-11-30" };
    const figures = async () => ({
      home: await filteredEventTotals(db, november, TZ, null, { page: "/pt-br" }),
      entry: await filteredEventTotals(db, november, TZ, null, { entry_page: "/pt-br" }),
      pipefy: await filteredEventTotals(db, november, TZ, null, { page: "/pt-br/pipefy" }),
      // The period does not change what a click's session saw: 11/11's click counts from 11/11 alone.
      eleventh: await filteredEventTotals(db, { start: "2026-11-11", end: "2026-11-11" }, TZ, null, {
        page: "/pt-br",
      }),
    });
    const expected = {
      home: { clicks: 2, conversions: 0, leads: 0 },
      entry: { clicks: 1, conversions: 0, leads: 0 },
      pipefy: { clicks: 1, conversions: 1, leads: 1 },
      eleventh: { clicks: 1, conversions: 0, leads: 0 },
    };
    assert.deepEqual(await figures(), expected, "looked up in the page views");
    await runRollups(db, TZ, new Date("2026-11-20T12:00:00Z"));
    assert.ok((await db.query("select 1 from session_keys")).length > 0);
    assert.deepEqual(await figures(), expected, "by the keys");
    // The next day's run writes the day just over, and only it.
    await visit("2026-11-20T13:00:00Z", "s4", "/pt-br");
    await click("2026-11-20T13:01:00Z", "s4");
    await runRollups(db, TZ, new Date("2026-11-21T12:00:00Z"));
    expected.home.clicks = 3;
    assert.deepEqual(await figures(), expected, "by the keys, a day later");
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from session_keys where day = '2026-11-20'",
    );
    assert.equal(n, 1);
    // An erased lead takes its keys; a purge of clicks takes theirs (leads are kept, with their keys).
    await deleteLeadsById(db, [s2Lead], TZ);
    const left = await db.query<{ event: string }>(
      "select distinct event from session_keys where value = '/pt-br/pipefy'",
    );
    assert.deepEqual(left, [{ event: "click" }]);
    await forgetClickKeysBefore(db, "2026-11-13");
    const days = await db.query<{ day: string }>(
      "select distinct to_char(day, 'YYYY-MM-DD') as day from session_keys where event = 'click' order by 1",
    );
    assert.deepEqual(days, [{ day: "2026-11-14" }, { day: "2026-11-20" }]);
  },
);
