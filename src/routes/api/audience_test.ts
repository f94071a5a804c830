// Who the visitors are (migrations/00020, docs/AUDIENCE.md): categories stored at ingestion (never the user
// agent or address), the panels' figures the same from raw rows and roll-ups, each row a filter, and leads per
// state of their WhatsApp number.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { insertTrackedEvent, sp } from "../../../testing/analytics_fixture.ts";
import type { Audience } from "../../db/event_columns.ts";
import { runRollups } from "../../services/rollups.ts";
import { purgeRawEvents } from "../../services/retention.ts";
import { leadsByState } from "../../services/audience_reports.ts";
import { insertLead } from "../../db/leads.ts";
import { leadStateCounts } from "../../db/audience.ts";
import { changeRolledLeads } from "../../db/lead_totals.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const visit = {
  source: "/pt-br",
  sessionId: "1732233600000-k3j4h5",
  utmSource: null,
  utmCampaign: null,
  utmMedium: null,
  utmTerm: null,
  utmContent: null,
};
const NOW = new Date("2026-12-05T12:00:00Z");
const NOV = "startDate=2026-11-01&endDate=2026-11-30";

async function admin(t: TestApp): Promise<(path: string) => Promise<Record<string, unknown>>> {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  return async (path) => {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 200, path);
    return await res.json();
  };
}

appTest(
  "audience: a page view and a plan click store device, browser, OS and country, never the user agent or address",
  async (t) => {
    const headers = { "user-agent": IPHONE, "x-forwarded-for": "200.147.67.142" };
    assert.equal((await t.postJson("/api/tracking/visit", visit, headers)).status, 202);
    assert.equal(
      (await t.postJson("/api/tracking/click", {
        source: "pricing_pro_plan",
        sessionId: visit.sessionId,
        utmSource: null,
        utmCampaign: null,
        utmMedium: null,
      }, {
        "user-agent": WINDOWS,
        "x-forwarded-for": "8.8.8.8",
        "sec-ch-ua": '"Chromium";v="124", "Brave";v="124", "Not-A.Brand";v="99"',
        "sec-ch-ua-mobile": "?0",
        "sec-ch-ua-platform": '"Windows"',
      })).status,
      202,
    );
    // A CDN's country header wins over the database.
    await t.postJson("/api/tracking/visit", visit, { ...headers, "cf-ipcountry": "PT" });
    const cols = "device, browser, browser_version, os, os_version, country, region";
    assert.deepEqual(await t.db.query(`select ${cols} from visits order by id`), [
      {
        device: "mobile",
        browser: "Safari",
        browser_version: "17",
        os: "iOS",
        os_version: "17",
        country: "BR",
        region: null,
      },
      {
        device: "mobile",
        browser: "Safari",
        browser_version: "17",
        os: "iOS",
        os_version: "17",
        country: "PT",
        region: null,
      },
    ]);
    assert.deepEqual(await t.db.query(`select ${cols} from clicks`), [
      {
        device: "desktop",
        browser: "Brave",
        browser_version: "124",
        os: "Windows",
        os_version: "10",
        country: "US",
        region: null,
      },
    ]);
    // Nothing of the user agent or the address itself is in any row.
    const dump = JSON.stringify(await t.db.query("select * from visits")) +
      JSON.stringify(await t.db.query("select * from clicks"));
    assert.ok(!dump.includes("200.147.67.142") && !dump.includes("8.8.8.8") && !dump.includes("AppleWebKit"));
    // A bot's page view is not stored at all.
    await t.postJson("/api/tracking/visit", visit, {
      "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)",
    });
    const [{ n }] = await t.db.query<{ n: number }>("select count(*)::int as n from visits");
    assert.equal(n, 2);
  },
  { env: { TRUST_PROXY: "1" } },
);

const SP_PHONE: Audience = {
  device: "mobile",
  browser: "Chrome",
  browserVersion: "124",
  os: "Android",
  osVersion: "14",
  country: "BR",
  region: "SP",
};
const RJ_DESKTOP: Audience = { ...SP_PHONE, device: "desktop", os: "Windows", osVersion: "10", region: "RJ" };

async function seed(t: TestApp) {
  const ev = (at: Date, session: string, audience?: Audience) => ({
    occurredAt: at,
    visitorKey: session.padStart(32, "0"),
    sessionId: session,
    source: "/pt-br",
    utmSource: null,
    utmCampaign: null,
    utmMedium: null,
    audience,
  });
  // November: 3 views from São Paulo phones, 1 from a Rio desktop, 1 from before migration 00020.
  await insertTrackedEvent(t.db, "visits", ev(sp("2026-11-10T10:00:00"), "s1", SP_PHONE));
  await insertTrackedEvent(t.db, "visits", ev(sp("2026-11-10T10:01:00"), "s1", SP_PHONE));
  await insertTrackedEvent(t.db, "visits", ev(sp("2026-11-11T10:00:00"), "s2", SP_PHONE));
  await insertTrackedEvent(t.db, "visits", ev(sp("2026-11-12T10:00:00"), "s3", RJ_DESKTOP));
  await insertTrackedEvent(t.db, "visits", ev(sp("2026-11-12T11:00:00"), "s4"));
  await insertTrackedEvent(t.db, "clicks", {
    ...ev(sp("2026-11-10T10:02:00"), "s1", SP_PHONE),
    clickKind: "plan",
  });
  await insertTrackedEvent(t.db, "clicks", {
    ...ev(sp("2026-11-12T10:01:00"), "s3", RJ_DESKTOP),
    clickKind: "plan",
  });
  // A WhatsApp click is not a plan click.
  await insertTrackedEvent(t.db, "clicks", {
    ...ev(sp("2026-11-12T10:02:00"), "s3", RJ_DESKTOP),
    clickKind: "whatsapp",
  });
  // October (the comparison): one Rio desktop view.
  await insertTrackedEvent(t.db, "visits", ev(sp("2026-10-05T10:00:00"), "s9", RJ_DESKTOP));
  // Leads take their session's categories from its latest page view.
  const lead = async (at: Date, session: string, whatsapp: string, page: string) => {
    const res = await t.db.query<{ id: number }>(
      `insert into leads (submitted_at, name, email, whatsapp, plan, plan_label, page, session_id)
       values ($1, 'Ana', 'ana@example.com', $2, 'pro', 'Pro', $3, $4) returning id`,
      [at, whatsapp, page, session],
    );
    return res[0].id;
  };
  await lead(sp("2026-11-10T10:03:00"), "s1", "(11) 98765-4321", "/pt-br");
  await lead(sp("2026-11-12T10:05:00"), "s3", "+55 21 99876-5432", "/en");
  await lead(sp("2026-10-05T10:05:00"), "s9", "(71) 99123-4567", "/pt-br");
}

async function panels(get: (path: string) => Promise<Record<string, unknown>>, query = NOV) {
  const out: Record<string, unknown> = {};
  for (const d of ["device", "browser", "os", "country", "region"]) {
    out[d] = ((await get(`/api/tracking/audience/${d}?${query}`)).rows as Record<string, unknown>[])
      .map((r) => [r.key, r.label, r.visits, r.clicks, r.leads, r.leadRate, r.previousVisits]);
  }
  return out;
}

appTest(
  "audience panels: visits, plan clicks, leads and rate per value with the previous period, raw and rolled up alike",
  async (t) => {
    await seed(t);
    // The lead rows were written directly: give them their session's categories as insertLead does.
    await t.db.query(
      `update leads l set device = v.device, browser = v.browser, os = v.os, country = v.country, region = v.region
         from visits v where v.session_id = l.session_id`,
    );
    const get = await admin(t);
    const raw = await panels(get);
    assert.deepEqual(raw.device, [
      ["mobile", "Celular", 3, 1, 1, 100, 0],
      ["desktop", "Computador", 1, 1, 1, 100, 1],
      ["", "Não identificado", 1, 0, 0, 0, 0],
    ]);
    assert.deepEqual(raw.region, [
      ["SP", "São Paulo (SP)", 3, 1, 1, 100, 0],
      ["RJ", "Rio de Janeiro (RJ)", 1, 1, 1, 100, 1],
      ["", "Não identificado", 1, 0, 0, 0, 0],
    ]);
    assert.deepEqual((raw.country as unknown[][])[0], ["BR", "Brasil", 4, 2, 2, 100, 1]);
    // Rolled up (the watermark passes every event): the same answers.
    await runRollups(t.db, "America/Sao_Paulo", NOW);
    const [{ n }] = await t.db.query<{ n: number }>("select count(*)::int as n from daily_audience");
    assert.ok(n > 0);
    assert.deepEqual(await panels(get), raw);
    // A row is a filter: f_device=mobile keeps the phone's page views, clicks and leads.
    const phone = await panels(get, `${NOV}&f_device=mobile`);
    assert.deepEqual(phone.region, [["SP", "São Paulo (SP)", 3, 1, 1, 100, 0]]);
    const summary = await get(`/api/tracking/summary?${NOV}&f_region=RJ`) as {
      current: { visits: number; clicks: number; leads: number };
    };
    assert.deepEqual(
      [summary.current.visits, summary.current.clicks, summary.current.leads],
      [1, 1, 1],
    );
  },
  { now: () => NOW },
);

appTest(
  "audience: a stored lead takes device, browser, OS, country and state from its session's latest page view",
  async (t) => {
    const headers = { "user-agent": IPHONE, "x-forwarded-for": "200.147.67.142" };
    assert.equal((await t.postJson("/api/tracking/visit", visit, headers)).status, 202);
    const res = await t.postJson("/api/leads", {
      name: "Ana Souza",
      email: "ana@example.com",
      whatsapp: "(11) 98765-4321",
      plan: "pro",
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
      sessionId: visit.sessionId,
      page: "/pt-br",
    }, headers);
    assert.equal(res.status, 201, await res.clone().text());
    assert.deepEqual(await t.db.query("select device, browser, os, country, region from leads"), [
      { device: "mobile", browser: "Safari", os: "iOS", country: "BR", region: null },
    ]);
  },
  { env: { TRUST_PROXY: "1" } },
);

appTest(
  "leads per state of their WhatsApp number: the panel, the previous period, the service",
  async (t) => {
    await seed(t);
    const get = await admin(t);
    const report = await get(`/api/tracking/lead-states?${NOV}`);
    assert.deepEqual(report.rows, [
      { state: "RJ", name: "Rio de Janeiro", leads: 1, previousLeads: 0 },
      { state: "SP", name: "São Paulo", leads: 1, previousLeads: 0 },
    ]);
    assert.deepEqual(report.comparison, { start: "2026-10-01", end: "2026-10-31" });
    assert.deepEqual(
      await leadsByState(t.db, { start: "2026-10-01", end: "2026-10-31" }, "America/Sao_Paulo"),
      [
        { state: "BA", name: "Bahia", leads: 1 },
      ],
    );
  },
  { now: () => NOW },
);

appTest(
  "leads per state: read from the number until stored; the roll-up job stores it for older leads, insertLead for new",
  async (t) => {
    await seed(t);
    const get = await admin(t);
    const stored = async () =>
      (await t.db.query<{ whatsapp: string; state: string | null }>(
        "select whatsapp, whatsapp_state as state from leads order by id",
      )).map((r) => [r.whatsapp, r.state]);
    // seed() writes its leads with SQL, as leads stored before migrations/00023 are: no state yet.
    assert.deepEqual((await stored()).map(([, state]) => state), [null, null, null]);
    const before = await get(`/api/tracking/lead-states?${NOV}`);
    await runRollups(t.db, "America/Sao_Paulo", NOW);
    assert.deepEqual(await stored(), [
      ["(11) 98765-4321", "SP"],
      ["+55 21 99876-5432", "RJ"],
      ["(71) 99123-4567", "BA"],
    ]);
    assert.deepEqual(await get(`/api/tracking/lead-states?${NOV}`), before);
    // Days between the comparison and the period count for neither (October 5's lead, BA).
    const counts = (previous: { start: string; end: string }) =>
      leadStateCounts(t.db, { start: "2026-11-01", end: "2026-11-30" }, previous, "America/Sao_Paulo");
    assert.deepEqual(
      (await counts({ start: "2026-10-01", end: "2026-10-03" })).filter((c) => !c.current),
      [],
    );
    assert.deepEqual(
      (await counts({ start: "2026-10-01", end: "2026-10-05" })).filter((c) => !c.current),
      [{ state: "BA", whatsapp: null, page: null, current: false, leads: 1 }],
    );
    const lead = (whatsapp: string, page: string, key: string) => ({
      idempotencyKey: key,
      name: "Ana",
      email: `${key}@example.com`,
      whatsapp,
      plan: "pro" as const,
      planLabel: "Pro",
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
      page,
      submittedAt: sp("2026-11-20T10:00:00"),
    });
    // Stored behind the watermark, like a lead the browser's outbox sends late: saveLead adds those to the
    // leads' roll-ups (services/leads.ts), as here.
    const late = [
      await insertLead(t.db, lead("(48) 99123-4567", "/pt-br", "sc")),
      await insertLead(t.db, lead("+1 415 555 0100", "/en", "us")),
    ];
    await changeRolledLeads(t.db, late as number[], 1, "America/Sao_Paulo");
    assert.deepEqual((await stored()).slice(3), [["(48) 99123-4567", "SC"], ["+1 415 555 0100", ""]]);
    const after = await get(`/api/tracking/lead-states?${NOV}`);
    assert.deepEqual(after.rows, [
      { state: "RJ", name: "Rio de Janeiro", leads: 1, previousLeads: 0 },
      { state: "SC", name: "Santa Catarina", leads: 1, previousLeads: 0 },
      { state: "SP", name: "São Paulo", leads: 1, previousLeads: 0 },
      { state: "", name: "Fora do Brasil ou não identificado", leads: 1, previousLeads: 0 },
    ]);
  },
  { now: () => NOW },
);

appTest("audience: an unknown panel is a 404, a bad filter value a 400 naming it", async (t) => {
  const cookie = (await seedAdmin(t.db), await signIn(t));
  assert.equal((await getAs(t, cookie, `/api/tracking/audience/shoe-size?${NOV}`)).status, 404);
  const bad = await getAs(t, cookie, `/api/tracking/audience/device?${NOV}&f_country=${"x".repeat(2001)}`);
  assert.equal(bad.status, 400);
  assert.ok("f_country" in (await bad.json()).fields);
  assert.equal((await t.request(`/api/tracking/audience/device?${NOV}`)).status, 401);
});

appTest(
  "audience: retention removes the categories with their rows; the roll-up keeps only counts",
  async (t) => {
    const old = sp("2025-09-01T10:00:00");
    const ev = {
      occurredAt: old,
      visitorKey: "0".repeat(32),
      sessionId: "s-old",
      source: "/pt-br",
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
      audience: SP_PHONE,
    };
    await insertTrackedEvent(t.db, "visits", ev);
    await insertTrackedEvent(t.db, "clicks", { ...ev, clickKind: "plan" });
    await t.db.transaction((tx) =>
      purgeRawEvents(tx, { retentionDays: 400, timeZone: "America/Sao_Paulo" }, NOW)
    );
    const [left] = await t.db.query<{ n: number }>(
      "select (select count(*) from visits where device is not null) + (select count(*) from clicks where device is not null) as n",
    );
    assert.equal(Number(left.n), 0);
    assert.deepEqual(
      await t.db.query(
        "select dimension, key, visits, clicks from daily_audience where dimension = 'region'",
      ),
      [{ dimension: "region", key: "SP", visits: 1, clicks: 1 }],
    );
  },
);
