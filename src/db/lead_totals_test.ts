// Leads per day from their roll-ups (db/lead_totals.ts, migrations/00036 and 00039): the headline, the daily
// chart, the channels, the conversion by UTM source, the lead list's total, and below the fold the audience
// panels, the states and the creatives and keywords count what the leads table counts, at any watermark, with a
// cut, after an erasure and before the backfill; and what answers is the roll-up.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { insertLead, insertVisit, sp } from "../../testing/analytics_fixture.ts";
import { runRollups } from "../services/rollups.ts";
import { eraseLeads } from "../services/lgpd.ts";
import { saveLead } from "../services/leads.ts";
import { testConfig } from "../../testing/app.ts";
import type { Db } from "./client.ts";
import { conversionBySource, dailyLeads, eventTotals, leadsByChannel } from "./dashboard_queries.ts";
import { countLeads } from "./lead_list.ts";
import { audienceCounts, leadStateCounts } from "./audience.ts";
import { rolledUtmDetail } from "./utm_detail.ts";
import { LEAD_DIMS } from "./lead_totals.ts";
import { AUDIENCE_DIMENSIONS } from "../shared/audience.ts";

const TZ = "America/Sao_Paulo";
const SOURCES = ["google", "", null, "Meta", "newsletter"];
const CHANNELS = [null, "Paid Search", "Organic Social", "Direct"];

/** 300 leads over 18–20 November 2026 (some on the minute either side of midnight), one on the 10th. */
async function seed(db: Db): Promise<void> {
  const midnight = sp("2026-11-18T00:00:00").getTime();
  const at = (i: number) => new Date(midnight + ((i * 7_919_113) % (3 * 86_400_000)));
  const times = [
    ...Array.from({ length: 296 }, (_, i) => at(i)),
    sp("2026-11-18T23:59:59"),
    sp("2026-11-19T00:00:00"),
    new Date(sp("2026-11-19T12:00:00").getTime() - 1),
    sp("2026-11-19T12:00:00"),
  ];
  for (const [i, when] of times.entries()) {
    await insertLead(db, when, {
      name: `Lead ${i}`,
      email: `lead${i}@exemplo.com.br`,
      whatsapp: "11987654321",
      utmSource: SOURCES[i % SOURCES.length] ?? undefined,
      lastChannel: CHANNELS[(i * 3) % CHANNELS.length] ?? undefined,
    });
  }
  await insertLead(db, sp("2026-11-10T09:00:00"), {
    name: "Primeiro",
    email: "primeiro@exemplo.com.br",
    whatsapp: "11987654321",
    utmSource: "google",
  });
  // The first event comes after the first lead: the first roll-up run still starts at the lead's day.
  await insertVisit(db, sp("2026-11-18T08:00:00"), "k1", "/pt-br");
  // The columns the panels below the fold count leads by, each with a few values, none and ''.
  const pick = (values: (string | null)[], step: number) =>
    `(array[${
      values.map((v) => (v === null ? "null" : `'${v}'`)).join(", ")
    }]::text[])[1 + (id * ${step}) % ${values.length}]`;
  await db.query(
    `update leads set device = ${pick(["mobile", "desktop", null, "tablet"], 1)},
                      browser = ${pick(["Chrome", "Safari", "", null, "Firefox"], 3)},
                      os = ${pick(["Android", "iOS", "Windows"], 7)},
                      country = ${pick(["BR", "PT", null], 5)},
                      region = ${pick(["SP", "RJ", "MG", null, ""], 2)},
                      whatsapp_state = ${pick(["SP", "RJ", ""], 11)},
                      utm_content = ${pick(["video-a", "carrossel", null, ""], 13)},
                      utm_term = ${pick(["chatbot whatsapp", null, "crm"], 17)}`,
  );
}

/** Leads per value ('' for none) of each LEAD_DIMS column in the range, from the leads table. */
async function dimsFromLeadsTable(db: Db, range: { start: string; end: string }) {
  const out: Record<string, string[]> = {};
  for (const dim of LEAD_DIMS) {
    const rows = await db.query<{ key: string; n: number }>(
      `select coalesce(${dim}, '') as key, count(*)::int as n from leads
        where submitted_at >= ($1::date::timestamp at time zone $3)
          and submitted_at < (($2::date + 1)::timestamp at time zone $3)
        group by 1`,
      [range.start, range.end, TZ],
    );
    const skip = dim === "utm_content" || dim === "utm_term" ? [""] : [];
    out[dim] = rows.filter((r) => !skip.includes(r.key)).map((r) => `${r.key}:${r.n}`).sort();
  }
  return out;
}

/** The days the panels compare with (the 10th and the days up to a period are between). */
const PREVIOUS = { start: "2026-11-01", end: "2026-11-09" };

/** The same from the panels' readers, and the states of PREVIOUS (`previousStates`). */
async function dimsFromReaders(db: Db, range: { start: string; end: string }) {
  const out: Record<string, string[]> = {};
  const previous = PREVIOUS;
  for (const dim of AUDIENCE_DIMENSIONS) {
    out[dim] = (await audienceCounts(db, dim, range, previous, TZ)).filter((r) => r.leads > 0)
      .map((r) => `${r.key}:${r.leads}`).sort();
  }
  const states = [new Map<string, number>(), new Map<string, number>()];
  for (const r of await leadStateCounts(db, range, previous, TZ)) {
    const key = r.state ?? "(not stored)", map = states[r.current ? 0 : 1];
    map.set(key, (map.get(key) ?? 0) + r.leads);
  }
  [out.whatsapp_state, out.previousStates] = states.map((m) => [...m].map(([k, n]) => `${k}:${n}`).sort());
  for (const column of ["utm_content", "utm_term"] as const) {
    out[column] = (await rolledUtmDetail(db, column, range, TZ, null))!.filter((r) => r.leads > 0)
      .map((r) => `${r.key}:${r.leads}`).sort();
  }
  return out;
}

/** The four figures of a period (and the headline's up to `cut`) from the leads table alone. */
async function fromLeadsTable(db: Db, range: { start: string; end: string }, cut: string | null) {
  const where = `submitted_at >= ($1::date::timestamp at time zone $3)
                 and submitted_at < (($2::date + 1)::timestamp at time zone $3)`;
  const params = [range.start, range.end, TZ];
  const [{ n }] = await db.query<{ n: number }>(
    `select count(*)::int as n from leads
      where submitted_at >= ($1::date::timestamp at time zone $3)
        and submitted_at < ($2::date + coalesce($4::time, '24:00'::time))::timestamp at time zone $3`,
    [...params, cut],
  );
  const daily = await db.query<{ date: string; count: number }>(
    `select to_char((submitted_at at time zone $3)::date, 'YYYY-MM-DD') as date, count(*)::int as count
       from leads where ${where} group by 1 order by 1`,
    params,
  );
  const channels = await db.query<{ channel: string; leads: number }>(
    `select last_channel as channel, count(*)::int as leads from leads
      where ${where} and last_channel is not null group by 1`,
    params,
  );
  const sources = await db.query<{ s: string | null; n: number }>(
    `select nullif(utm_source, '') as s, count(*)::int as n from leads where ${where} group by 1`,
    params,
  );
  channels.sort((a, b) => a.channel.localeCompare(b.channel));
  const [{ listed }] = await db.query<{ listed: number }>(
    `select count(*)::int as listed from leads where ${where}`,
    params,
  );
  return { leads: n, daily, channels, sources: sources.map((r) => `${r.s}:${r.n}`).sort(), listed };
}

async function fromReaders(db: Db, range: { start: string; end: string }, cut: string | null) {
  return {
    leads: (await eventTotals(db, range, TZ, cut)).leads,
    daily: await dailyLeads(db, range, TZ),
    channels: (await leadsByChannel(db, range, TZ)).sort((a, b) => a.channel.localeCompare(b.channel)),
    sources: (await conversionBySource(db, range, TZ)).map((r) => `${r.utmSource}:${r.conversions}`).sort(),
    listed: await countLeads(db, { range, limit: 25 }, TZ),
  };
}

const PERIODS = [
  { start: "2026-11-01", end: "2026-11-30" },
  { start: "2026-11-10", end: "2026-11-10" },
  { start: "2026-11-18", end: "2026-11-18" },
  { start: "2026-11-18", end: "2026-11-19" },
  { start: "2026-11-19", end: "2026-11-19" },
  { start: "2026-11-19", end: "2026-11-20" },
  { start: "2026-11-20", end: "2026-11-20" },
];
const CUTS = [null, "00:00:00", "11:59:59", "12:00:00", "12:00:01", "23:59:59"];

async function assertSameAsLeadsTable(db: Db, when: string) {
  for (const range of PERIODS) {
    for (const cut of CUTS) {
      const label = `${when}: ${range.start}..${range.end} up to ${cut}`;
      const truth = await fromLeadsTable(db, range, cut);
      const read = await fromReaders(db, range, cut);
      assert.equal(read.leads, truth.leads, label);
      if (cut !== null) continue;
      assert.deepEqual(read.daily, truth.daily, label);
      assert.deepEqual(read.channels, truth.channels, label);
      assert.deepEqual(read.sources, truth.sources, label);
      assert.equal(read.listed, truth.listed, label);
    }
    const label = `${when}: ${range.start}..${range.end}, below the fold`;
    const previousStates = (await dimsFromLeadsTable(db, PREVIOUS)).whatsapp_state;
    assert.deepEqual(await dimsFromReaders(db, range), {
      ...await dimsFromLeadsTable(db, range),
      previousStates,
    }, label);
  }
}

const rolledRows = async (db: Db) =>
  (await db.query<{ n: number }>("select coalesce(sum(leads), 0)::int as n from daily_lead_totals"))[0].n;

dbTest("lead totals: every watermark, cut and erasure counts what the leads table counts", async (db) => {
  await seed(db);
  assert.equal((await fromLeadsTable(db, PERIODS[0], null)).leads, 301);
  await assertSameAsLeadsTable(db, "before any roll-up");
  // The watermark at 12:00 on the 19th: the 10th (before the first event) and the 18th are rolled up, the 19th
  // up to 12:00.
  assert.ok(await runRollups(db, TZ, sp("2026-11-19T12:02:00")));
  const before = (await db.query<{ n: number }>(
    "select count(*)::int as n from leads where submitted_at < $1",
    [sp("2026-11-19T12:00:00")],
  ))[0].n;
  assert.equal(await rolledRows(db), before);
  await assertSameAsLeadsTable(db, "watermark 19th 12:00");

  // Erasures: one lead before the watermark, one after it, and every lead of one day, source and channel.
  const ids = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: number }>(`select id from leads where ${sql} order by id`, params)).map((r) =>
      Number(r.id)
    );
  const early = (await ids("submitted_at < $1", [sp("2026-11-18T12:00:00")])).slice(0, 1);
  const late = (await ids("submitted_at > $1", [sp("2026-11-19T13:00:00")])).slice(0, 1);
  const group = await ids(
    `(submitted_at at time zone $1)::date = '2026-11-18' and utm_source = 'Meta' and last_channel = 'Direct'`,
    [TZ],
  );
  assert.ok(group.length > 0);
  const erased = await eraseLeads(db, [...early, ...late, ...group], TZ);
  assert.equal(erased.leads, 2 + group.length);
  assert.equal(await rolledRows(db), before - 1 - group.length);
  const [{ n: empty }] = await db.query<{ n: number }>(
    "select count(*)::int as n from daily_lead_totals where leads <= 0",
  );
  assert.equal(empty, 0, "a row an erasure emptied goes");
  await assertSameAsLeadsTable(db, "after the erasures");

  // The days over: everything from the roll-up.
  assert.ok(await runRollups(db, TZ, sp("2026-11-21T08:00:00")));
  await assertSameAsLeadsTable(db, "watermark 21st 07:58");
  // What answers is the roll-up: a spoiled row shows in every figure.
  await db.query(
    `update daily_lead_totals set leads = leads + 1000
      where day = '2026-11-18' and utm_source = 'google' and last_channel = 'Paid Search'`,
  );
  const spoiled = await fromReaders(db, { start: "2026-11-18", end: "2026-11-18" }, null);
  const truth = await fromLeadsTable(db, { start: "2026-11-18", end: "2026-11-18" }, null);
  assert.equal(spoiled.leads, truth.leads + 1000);
  assert.equal(spoiled.daily[0].count, truth.daily[0].count + 1000);
  const paid = (rows: { channel: string; leads: number }[]) =>
    rows.find((r) => r.channel === "Paid Search")!.leads;
  assert.equal(paid(spoiled.channels), paid(truth.channels) + 1000);
  const google = (rows: string[]) => Number(rows.find((r) => r.startsWith("google:"))!.split(":")[1]);
  assert.equal(google(spoiled.sources), google(truth.sources) + 1000);
  assert.equal(spoiled.listed, truth.listed + 1000);
  // And below the fold: a spoiled row of the leads per device and one per state.
  await db.query(
    `update daily_lead_dims set leads = leads + 1000
      where day = '2026-11-18' and (dimension, key) in (('device', 'mobile'), ('whatsapp_state', 'SP'))`,
  );
  const dims = await dimsFromReaders(db, { start: "2026-11-18", end: "2026-11-18" });
  const dimsTruth = await dimsFromLeadsTable(db, { start: "2026-11-18", end: "2026-11-18" });
  const count = (rows: string[], key: string) =>
    Number(rows.find((r) => r.startsWith(key + ":"))!.split(":")[1]);
  assert.equal(count(dims.device, "mobile"), count(dimsTruth.device, "mobile") + 1000);
  assert.equal(count(dims.whatsapp_state, "SP"), count(dimsTruth.whatsapp_state, "SP") + 1000);
  // A search, a plan or a source in the list's own boxes counts the leads table.
  const range = { start: "2026-11-18", end: "2026-11-18" };
  assert.equal(await countLeads(db, { range, plan: "pro" }, TZ), truth.listed);
  // Until the backfill has run (a database migrated after its first roll-ups), the leads table answers alone.
  await db.query("insert into daily_lead_totals_backfill default values");
  await db.query("insert into daily_lead_dims_backfill default values");
  await assertSameAsLeadsTable(db, "backfill pending");
  assert.ok(await runRollups(db, TZ, sp("2026-11-21T08:10:00")));
  assert.equal((await db.query("select 1 from daily_lead_totals_backfill")).length, 0);
  assert.equal((await db.query("select 1 from daily_lead_dims_backfill")).length, 0);
  await assertSameAsLeadsTable(db, "after the backfill");
});

dbTest("lead totals: a lead the outbox sends late, behind the watermark, is counted once", async (db) => {
  await seed(db);
  assert.ok(await runRollups(db, TZ, sp("2026-11-20T10:02:00")));
  const config = testConfig({ ANALYTICS_TZ: TZ });
  const save = (key: string, submittedAt: Date, now: Date, utmSource: string | null) =>
    saveLead(db, config, {
      name: "Atrasada",
      email: `${key}@exemplo.com.br`,
      whatsapp: "(11) 98765-4321",
      plan: "Pro",
      utmSource,
      utmCampaign: null,
      utmMedium: null,
      page: "/pt-br/",
      idempotencyKey: key,
      eventId: null,
      sessionId: null,
      submittedAt: submittedAt.getTime(),
    }, { client: { ip: "127.0.0.1", userAgent: "test", cookies: {} }, now });
  // Sent a day late, then sent again (the same key: stored and counted once).
  const late = sp("2026-11-19T09:30:00");
  assert.equal((await save("late", late, sp("2026-11-20T10:05:00"), "google")).created, true);
  assert.equal((await save("late", late, sp("2026-11-20T10:06:00"), "google")).created, false);
  // Behind the watermark by seconds; and one in the grace (after the watermark), left to the next run.
  await save("just-behind", sp("2026-11-20T09:59:30"), sp("2026-11-20T10:05:00"), "Meta");
  await save("in-grace", sp("2026-11-20T10:03:00"), sp("2026-11-20T10:04:30"), null);
  await assertSameAsLeadsTable(db, "late leads");
  assert.ok(await runRollups(db, TZ, sp("2026-11-21T08:00:00")));
  await assertSameAsLeadsTable(db, "late leads, the days over");
});
