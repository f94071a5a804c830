// Leads under one filter of the session from the keys' sums (db/filter_leads.ts, migrations/00037): the five
// lead figures count what the definition counts (a lead whose session viewed the value on its day or the day
// before), before any roll-up, with the keys' days summed, with a cut, for a lead stored late behind the keys'
// end and after erasures; and what answers is the sums. src/db/session_keys_test.ts compares the same figures
// with the page views' path on a seeded database.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { sp } from "../../testing/analytics_fixture.ts";
import { runRollups } from "../services/rollups.ts";
import { eraseLeads } from "../services/lgpd.ts";
import { saveLead } from "../services/leads.ts";
import { testConfig } from "../../testing/app.ts";
import type { Db } from "./client.ts";
import {
  filteredConversionBySource,
  filteredDailyLeads,
  filteredEventTotals,
  filteredLeadsByChannel,
} from "./filtered.ts";
import { countLeads } from "./lead_list.ts";
import type { Filters } from "../shared/filters.ts";
import { SESSION_VALUES } from "./session_keys.ts";

const TZ = "America/Sao_Paulo";
const PAGES = ["/pt-br", "/pt-br/pipefy", "/en/trello?ref=x"];
const SOURCES = ["google", null, "Meta"];
const CHANNELS = ["Paid Search", null, "Organic Social", "Direct"];
const FILTERS: Filters[] = [
  { page: "/pt-br" },
  { page: "/pt-br/pipefy" },
  { entry_page: "/en/trello" },
  { utm_content: "video-a" },
];
const PERIODS = [
  { range: { start: "2026-11-01", end: "2026-11-30" }, cut: null },
  { range: { start: "2026-11-18", end: "2026-11-19" }, cut: null },
  { range: { start: "2026-11-18", end: "2026-11-19" }, cut: "13:30:00" },
  { range: { start: "2026-11-20", end: "2026-11-20" }, cut: "09:00:00" },
];

async function visit(
  db: Db,
  at: Date,
  session: string,
  page: string,
  entry: boolean,
  content: string | null,
) {
  await db.query(
    `insert into visits (occurred_at, visitor_key, session_id, source, entry, utm_content)
     values ($1, $2, $3, $4, $5, $6)`,
    [at, "k-" + session, session, page, entry, content],
  );
}

async function lead(db: Db, at: Date, session: string | null, i: number) {
  await db.query(
    `insert into leads (name, email, whatsapp, plan, submitted_at, session_id, utm_source, last_channel)
     values ($1, $2, '+5511987654321', 'pro', $3, $4, $5, $6)`,
    [`Lead ${i}`, `lead${i}@exemplo.com.br`, at, session, SOURCES[i % 3], CHANNELS[i % 4]],
  );
}

/**
 * 90 sessions over 17–20 November 2026 (local), each entering on one page and some viewing another the next
 * day; 80 leads of those sessions on their first day, the next or two days later (too late to count), and
 * two leads without a session.
 */
async function seed(db: Db): Promise<void> {
  for (let i = 0; i < 90; i++) {
    const session = `s${i}`;
    const day = 17 + (i % 4);
    const first = sp(`2026-11-${day}T${String(6 + (i % 15)).padStart(2, "0")}:10:00`);
    await visit(db, first, session, PAGES[i % 3], true, i % 5 === 0 ? "video-a" : null);
    if (i % 4 === 1) {
      await visit(db, new Date(first.getTime() + 86_400_000), session, PAGES[(i + 1) % 3], false, null);
    }
    if (i < 80) {
      const lag = [0.5, 5, 24, 49][i % 4] * 3_600_000;
      await lead(db, new Date(first.getTime() + lag), session, i);
    }
  }
  await lead(db, sp("2026-11-18T12:00:00"), null, 90);
  await lead(db, sp("2026-11-19T12:00:00"), "", 91);
}

/** The figures by the definition alone: the leads whose session viewed the value on their day or the day before. */
async function truth(db: Db, f: Filters, range: { start: string; end: string }, cut: string | null) {
  const [key, value] = Object.entries(f)[0];
  const rows = await db.query<{ day: string; source: string | null; channel: string | null }>(
    `select to_char((l.submitted_at at time zone $3)::date, 'YYYY-MM-DD') as day, l.utm_source as source,
            l.last_channel as channel
       from leads l
      where l.submitted_at >= ($1::date::timestamp at time zone $3)
        and l.submitted_at < ($2::date + coalesce($5::time, '24:00'::time))::timestamp at time zone $3
        and l.session_id <> '' and exists (
          select 1 from visits s where s.session_id = l.session_id and ${
      SESSION_VALUES[key as "page"]!("s")
    } = $4
             and (s.occurred_at at time zone $3)::date between (l.submitted_at at time zone $3)::date - 1
                                                            and (l.submitted_at at time zone $3)::date)`,
    [range.start, range.end, TZ, value, cut],
  );
  return rows;
}

/** The five figures from the readers, and the same from the definition. */
async function compare(db: Db, label: string) {
  let counted = 0;
  for (const f of FILTERS) {
    for (const { range, cut } of PERIODS) {
      const rows = await truth(db, f, range, cut);
      const at = `${label}: ${JSON.stringify(f)} ${range.start}–${range.end} ${cut ?? ""}`;
      assert.equal((await filteredEventTotals(db, range, TZ, cut, f)).leads, rows.length, at);
      counted += rows.length;
      if (cut) continue;
      const tally = (key: (r: (typeof rows)[number]) => string | null) => {
        const out = new Map<string | null, number>();
        for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + 1);
        return out;
      };
      const days = [...tally((r) => r.day)].sort().map(([date, count]) => ({ date, count }));
      assert.deepEqual(await filteredDailyLeads(db, range, TZ, f), days, at);
      const channels = [...tally((r) => r.channel)].filter(([c]) => c !== null)
        .map(([channel, leads]) => ({ channel, leads }));
      const byChannel = await filteredLeadsByChannel(db, range, TZ, f);
      assert.deepEqual(sortBy(byChannel, "channel"), sortBy(channels, "channel"), at);
      const sources = new Map(
        (await filteredConversionBySource(db, range, TZ, f)).map((r) => [r.utmSource, r.conversions]),
      );
      for (const [source, n] of tally((r) => r.source)) assert.equal(sources.get(source), n, at);
      assert.equal(await countLeads(db, { range, filters: f }, TZ), rows.length, at);
    }
    const all = await truth(db, f, { start: "2000-01-01", end: "2100-01-01" }, null);
    assert.equal(
      await countLeads(db, { filters: f }, TZ),
      all.length,
      `${label}: ${JSON.stringify(f)}, no period`,
    );
  }
  return counted;
}

const sortBy = <T, K extends keyof T>(rows: T[], key: K) =>
  [...rows].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

const rolledLeads = async (db: Db) =>
  (await db.query<{ n: number }>("select coalesce(sum(leads), 0)::int as n from daily_filter_leads"))[0].n;

dbTest("filter leads: one filter of the session counts the definition's leads, summed or not", async (db) => {
  await seed(db);
  assert.ok(await compare(db, "before any roll-up") > 40, "too few leads under the filters");
  // Keys until 20 November's midnight: 17–19 summed, the 20th read lead by lead; a cut on the 19th.
  assert.ok(await runRollups(db, TZ, sp("2026-11-20T10:02:00")));
  assert.ok(await rolledLeads(db) > 30);
  await compare(db, "keys until the 20th");

  // A lead the outbox sends a day late: its day's keys are written, so it gets its own, and it is counted once.
  const config = testConfig({ ANALYTICS_TZ: TZ });
  await visit(db, sp("2026-11-18T22:00:00"), "s-late", "/pt-br/pipefy", true, "video-a");
  const save = (now: Date) =>
    saveLead(db, config, {
      name: "Atrasada",
      email: "atrasada@exemplo.com.br",
      whatsapp: "(11) 98765-4321",
      plan: "Pro",
      utmSource: "google",
      utmCampaign: null,
      utmMedium: null,
      page: "/pt-br/pipefy",
      idempotencyKey: "late-1",
      eventId: null,
      sessionId: "s-late",
      submittedAt: sp("2026-11-19T09:30:00").getTime(),
    }, { client: { ip: "127.0.0.1", userAgent: "test", cookies: {} }, now });
  const before = await rolledLeads(db);
  assert.equal((await save(sp("2026-11-20T10:05:00"))).created, true);
  assert.equal((await save(sp("2026-11-20T10:06:00"))).created, false);
  // Under /pt-br/pipefy, video-a and the entry page /pt-br/pipefy: three keys, one lead each.
  assert.equal(await rolledLeads(db), before + 3);
  await compare(db, "a late lead");

  // Erasures: the late lead, and every lead of one summed row.
  const [row] = await db.query<{ id: number }>(
    `select k.id from session_keys k where k.event = 'lead' and k.filter = 'page' and k.value = '/pt-br'
      order by k.id limit 1`,
  );
  const [late] = await db.query<{ id: number }>(
    "select id from leads where email = 'atrasada@exemplo.com.br'",
  );
  await eraseLeads(db, [Number(row.id), Number(late.id)], TZ);
  const [{ n: empty }] = await db.query<{ n: number }>(
    "select count(*)::int as n from daily_filter_leads where leads <= 0",
  );
  assert.equal(empty, 0, "a row an erasure emptied goes");
  await compare(db, "after the erasures");

  // The days over: the 20th summed too, and the sums rewritten with the keys.
  assert.ok(await runRollups(db, TZ, sp("2026-11-22T08:00:00")));
  await compare(db, "keys until the 22nd");

  // What answers is the sums: a spoiled row shows.
  const f = { page: "/pt-br" }, range = { start: "2026-11-17", end: "2026-11-21" };
  const right = (await filteredEventTotals(db, range, TZ, null, f)).leads;
  await db.query(
    `update daily_filter_leads set leads = leads + 1000
      where (filter, value, day, utm_source, last_channel) in (
        select filter, value, day, utm_source, last_channel from daily_filter_leads
         where filter = 'page' and value = '/pt-br' limit 1)`,
  );
  assert.equal((await filteredEventTotals(db, range, TZ, null, f)).leads, right + 1000);
  assert.equal(await countLeads(db, { range, filters: f }, TZ), right + 1000);
  // Two filters read the keys, not the sums.
  const two = { page: "/pt-br", channel: "Direct" };
  assert.equal(
    (await filteredEventTotals(db, range, TZ, null, two)).leads,
    (await truth(db, f, range, null))
      .filter((r) => r.channel === "Direct").length,
  );
});
