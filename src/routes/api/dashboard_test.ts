import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import {
  insertClick,
  insertConversion,
  insertLead,
  insertVisit,
  sp,
} from "../../../testing/analytics_fixture.ts";
import type { z } from "zod";
import { averageLeadsPerDay, averageVisitsPerDay, mergeDaily, todayIn } from "../../shared/dashboard_math.ts";
import * as schemas from "../../shared/schemas.ts";
import { runRollups } from "../../services/rollups.ts";

const NOV = "startDate=2026-11-01&endDate=2026-11-30";
const google = { utmSource: "google", utmCampaign: "black-friday", utmMedium: "cpc" };
const facebook = { utmSource: "facebook", utmCampaign: "promo", utmMedium: "social" };

/**
 * November 2026 in São Paulo, built so every figure below can be worked out by hand:
 * leads on 01, 15 (×2) and 30 (23:30 local, i.e. 1 December in UTC); one lead either side of the month;
 * clicks on 01 (2), 15 (4), 20 (3); conversions on 01, 15 (2), 22; visits by keys v1..v8 on 01, 02, 15,
 * 16 and 30, plus one on 31 October 23:59 local.
 */
async function seedNovember(t: TestApp) {
  const db = t.db;
  await insertLead(db, sp("2026-11-30T23:30:00"), {
    name: "Last Day",
    email: "last@example.com",
    whatsapp: "1",
    ...google,
  });
  await insertLead(db, sp("2026-11-01T00:10:00"), {
    name: "First Day",
    email: "first@example.com",
    whatsapp: "2",
  });
  await insertLead(db, sp("2026-10-31T23:59:00"), {
    name: "October",
    email: "oct@example.com",
    whatsapp: "3",
  });
  await insertLead(db, sp("2026-12-01T00:00:00"), {
    name: "December",
    email: "dec@example.com",
    whatsapp: "4",
  });
  await insertLead(db, sp("2026-11-15T12:00:00"), {
    name: "Maria Souza",
    email: "maria@empresa.com.br",
    whatsapp: "+55 (11) 98888-7777",
    plan: "premium",
    planLabel: "Premium",
    ...facebook,
  });
  await insertLead(db, sp("2026-11-15T18:00:00"), {
    name: '=HYPERLINK("x")',
    email: "a@b.co",
    whatsapp: "5",
  });

  for (const at of ["2026-11-01T09:00:00", "2026-11-01T10:00:00"]) await insertClick(db, sp(at), google);
  await insertClick(db, sp("2026-11-15T09:00:00"), google);
  for (let i = 0; i < 3; i++) await insertClick(db, sp(`2026-11-15T1${i}:00:00`), facebook);
  for (let i = 0; i < 3; i++) await insertClick(db, sp(`2026-11-20T1${i}:00:00`));

  await insertConversion(db, sp("2026-11-01T09:05:00"), google);
  await insertConversion(db, sp("2026-11-15T10:05:00"), facebook);
  await insertConversion(db, sp("2026-11-15T10:06:00"), google);
  await insertConversion(db, sp("2026-11-22T08:00:00"), { utmSource: "instagram" });

  const home = "/pt-br?utm_source=google";
  await insertVisit(db, sp("2026-11-01T08:00:00"), "v1", home, google);
  await insertVisit(db, sp("2026-11-01T08:05:00"), "v1", home, google);
  await insertVisit(db, sp("2026-11-01T09:00:00"), "v2", "/pt-br", facebook);
  await insertVisit(db, sp("2026-11-02T00:00:00"), "v1", home, google);
  await insertVisit(db, sp("2026-11-15T10:00:00"), "v3", "/pt-br", facebook);
  await insertVisit(db, sp("2026-11-15T11:00:00"), "v4", "/pt-br/clientes", {
    ...facebook,
    utmCampaign: "black-friday",
  });
  await insertVisit(db, sp("2026-11-15T12:00:00"), "v5", "/pt-br/clientes");
  for (let i = 0; i < 3; i++) {
    await insertVisit(db, sp(`2026-11-16T0${i}:00:00`), "v8", "/es", {
      utmSource: "instagram",
      utmCampaign: "reels",
    });
  }
  await insertVisit(db, sp("2026-11-30T23:30:00"), "v6", home, google);
  await insertVisit(db, sp("2026-10-31T23:59:00"), "v7", "/pt-br", google);
}

async function json(t: TestApp, cookie: string, path: string) {
  const res = await getAs(t, cookie, path);
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  return await res.json();
}

async function ready(t: TestApp) {
  await seedAdmin(t.db);
  await seedNovember(t);
  return await signIn(t);
}

const ADMIN_GETS = [
  "/api/leads",
  `/api/leads?${NOV}`,
  `/api/leads/export.csv?${NOV}`,
  "/api/leads/analytics?days=30",
  "/api/tracking/analytics?days=30",
  `/api/tracking/unique-visits?${NOV}`,
  `/api/tracking/stats?${NOV}`,
  "/api/tracking/stats",
  `/api/tracking/summary?${NOV}`,
  `/api/tracking/rankings/utm-source?${NOV}`,
  `/api/tracking/rankings/utm-campaign?${NOV}`,
  `/api/tracking/rankings/pages?${NOV}`,
  `/api/tracking/conversion-by-utm-source?${NOV}`,
];

appTest("dashboard: every data endpoint answers 401 JSON without a valid session", async (t) => {
  await seedAdmin(t.db);
  for (const path of ADMIN_GETS) {
    for (
      const headers of [{}, { cookie: "admin_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" }] as Record<
        string,
        string
      >[]
    ) {
      const res = await t.request(path, { headers });
      assert.equal(res.status, 401, path);
      assert.match(res.headers.get("content-type") ?? "", /application\/json/, path);
      assert.equal(res.headers.get("cache-control"), "no-store", path);
      assert.deepEqual(await res.json(), { error: "unauthorized" });
    }
  }
});

appTest(
  "dashboard: a lead at 23:30 on the month's last day counts on that day and in that month",
  async (t) => {
    const cookie = await ready(t);
    const leads = await json(t, cookie, `/api/leads/analytics?${NOV}`);
    assert.deepEqual(leads, [
      { date: "2026-11-01", count: 1 },
      { date: "2026-11-15", count: 2 },
      { date: "2026-11-30", count: 1 },
    ]);
    const list = await json(t, cookie, `/api/leads?${NOV}`);
    assert.deepEqual(list.map((l: { name: string }) => l.name), [
      "Last Day",
      '=HYPERLINK("x")',
      "Maria Souza",
      "First Day",
    ]);
    assert.equal(list[0].submittedAt, "2026-12-01T02:30:00.000Z");
    const december = await json(t, cookie, "/api/leads/analytics?startDate=2026-12-01&endDate=2026-12-31");
    assert.deepEqual(december, [{ date: "2026-12-01", count: 1 }]);
    const summary = await json(t, cookie, `/api/tracking/summary?${NOV}`);
    assert.equal(summary.current.leads, 4);
    // The previous month (1 to 31 October) holds the lead and the visit of 31 October 23:59.
    assert.equal(summary.previous.start, "2026-10-01");
    assert.equal(summary.previous.end, "2026-10-31");
    assert.equal(summary.previous.leads, 1);
    assert.equal(summary.previous.uniqueVisitors, 1);
    assert.equal(summary.previous.until, null);
  },
  // November is over: a whole month, compared with the whole month before it.
  { now: () => sp("2026-12-05T12:00:00") },
);

appTest(
  "dashboard: a period under way is compared with the same days; today with yesterday until the same time",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    const db = t.db;
    // 26 November 2026, 09:00 in São Paulo: "Este mês" is compared with 1 to 26 October (whole days), "Hoje"
    // with 25 November until 09:00.
    await insertVisit(db, sp("2026-10-05T10:00:00"), "c", "/pt-br");
    await insertVisit(db, sp("2026-10-26T08:59:00"), "a", "/pt-br");
    await insertVisit(db, sp("2026-10-26T09:01:00"), "b", "/pt-br");
    await insertVisit(db, sp("2026-10-28T10:00:00"), "z", "/pt-br", {}, { trafficSource: "google" });
    await insertVisit(db, sp("2026-10-10T10:00:00"), "y", "/pt-br", {}, { trafficSource: "google" });
    await insertVisit(db, sp("2026-11-20T10:00:00"), "x", "/pt-br", {}, { trafficSource: "google" });
    await insertClick(db, sp("2026-10-26T08:00:00"));
    await insertClick(db, sp("2026-10-26T10:00:00"));
    await insertClick(db, sp("2026-10-30T10:00:00"));
    await insertLead(db, sp("2026-10-26T08:30:00"), { name: "In", email: "in@example.com", whatsapp: "1" });
    await insertLead(db, sp("2026-10-26T09:30:00"), { name: "Out", email: "out@example.com", whatsapp: "2" });
    await insertVisit(db, sp("2026-11-25T08:00:00"), "d", "/pt-br");
    await insertVisit(db, sp("2026-11-25T20:00:00"), "e", "/pt-br");
    await insertVisit(db, sp("2026-11-25T21:00:00"), "f", "/pt-br");
    await insertVisit(db, sp("2026-11-26T08:00:00"), "d", "/pt-br");
    const check = async (when: string) => {
      const month = await json(t, cookie, `/api/tracking/summary?${NOV}`);
      const { start, end, until, leads, clicks, uniqueVisitors, visits } = month.previous;
      assert.deepEqual(
        { start, end, until, leads, clicks, uniqueVisitors, visits },
        {
          start: "2026-10-01",
          end: "2026-10-26",
          until: null,
          leads: 2,
          clicks: 2,
          uniqueVisitors: 4,
          visits: 4,
        },
        when,
      );
      const today = await json(t, cookie, "/api/tracking/summary?startDate=2026-11-26&endDate=2026-11-26");
      assert.equal(today.current.uniqueVisitors, 1, when);
      assert.equal(month.current.uniqueVisitors, 4, when);
      assert.deepEqual(
        [today.previous.start, today.previous.end, today.previous.until, today.previous.uniqueVisitors],
        ["2026-11-25", "2026-11-25", "09:00:00", 1],
        when,
      );
      // The channel report and the rankings compare with the same days (whole days).
      const channels = await json(t, cookie, `/api/tracking/channels?${NOV}`);
      assert.deepEqual(channels.comparison, { start: "2026-10-01", end: "2026-10-26" }, when);
      // 28 October lies between the two: in neither.
      const sources = await json(t, cookie, `/api/tracking/rankings/sources?${NOV}`);
      assert.deepEqual(sources, [{ source: "google", visits: 1, previousVisits: 1 }], when);
    };
    await check("raw only");
    await runRollups(db, "America/Sao_Paulo", sp("2026-11-26T09:00:00"));
    await check("rolled up");
  },
  { now: () => sp("2026-11-26T09:00:00") },
);

appTest("dashboard: daily series, exact unique visitors and both averages' divisors", async (t) => {
  const cookie = await ready(t);
  const leads = await json(t, cookie, `/api/leads/analytics?${NOV}`);
  const clicks = await json(t, cookie, `/api/tracking/analytics?${NOV}`);
  assert.deepEqual(clicks, [
    { date: "2026-11-01", count: 2 },
    { date: "2026-11-15", count: 4 },
    { date: "2026-11-20", count: 3 },
  ]);
  const visits = await json(t, cookie, `/api/tracking/unique-visits?${NOV}`);
  assert.deepEqual(visits, [
    { date: "2026-11-01", count: 2 },
    { date: "2026-11-02", count: 1 },
    { date: "2026-11-15", count: 3 },
    { date: "2026-11-16", count: 1 },
    { date: "2026-11-30", count: 1 },
  ]);
  const points = mergeDaily(leads, clicks, visits);
  assert.deepEqual(points.map((p) => [p.date, p.leads, p.clicks, p.visits, p.conversionRate]), [
    ["2026-11-01", 1, 2, 2, 50],
    ["2026-11-02", 0, 0, 1, 0],
    ["2026-11-15", 2, 4, 3, 50],
    ["2026-11-16", 0, 0, 1, 0],
    ["2026-11-20", 0, 3, 0, 0],
    ["2026-11-30", 1, 0, 1, 0], // a lead without clicks: rate 0, not infinity
  ]);
  // Leads per day: 4 leads over 6 chart days; visitors per day: 8 over the 5 days with visits.
  assert.equal(averageLeadsPerDay(points), 0.7);
  assert.equal(averageVisitsPerDay(visits), 1.6);
  const summary = await json(t, cookie, `/api/tracking/summary?${NOV}`);
  // Exact distinct visitors (v1..v6 and v8) = 7, not the daily sum of 8.
  assert.equal(summary.current.uniqueVisitors, 7);
  assert.equal(summary.current.visits, 11);
  assert.equal(summary.current.clicks, 9);
  assert.equal(summary.current.conversions, 4);
  assert.equal(summary.current.conversionRate, 44.4);
});

appTest("dashboard: ?days=n counts the last n local days, today included", async (t) => {
  await seedAdmin(t.db);
  await seedNovember(t);
  const cookie = await signIn(t);
  const series = await json(t, cookie, "/api/leads/analytics?days=1");
  assert.deepEqual(series, [{ date: "2026-11-30", count: 1 }]);
  const two = await json(t, cookie, "/api/tracking/analytics?days=16");
  assert.deepEqual(two, [{ date: "2026-11-15", count: 4 }, { date: "2026-11-20", count: 3 }]);
}, { now: () => new Date("2026-12-01T02:59:00Z") }); // 30 November, 23:59 in São Paulo

appTest("dashboard: an empty period answers empty series, zero stats and empty rankings", async (t) => {
  const cookie = await ready(t);
  const june = "startDate=2026-06-01&endDate=2026-06-30";
  for (const path of ["/api/leads/analytics", "/api/tracking/analytics", "/api/tracking/unique-visits"]) {
    assert.deepEqual(await json(t, cookie, `${path}?${june}`), [], path);
  }
  for (const kind of ["utm-source", "utm-campaign", "pages"]) {
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/${kind}?${june}`), []);
  }
  assert.deepEqual(await json(t, cookie, `/api/tracking/conversion-by-utm-source?${june}`), []);
  assert.deepEqual(await json(t, cookie, `/api/tracking/stats?${june}`), {
    clicks: 0,
    conversions: 0,
    rate: 0,
  });
  assert.deepEqual(await json(t, cookie, `/api/leads?${june}`), []);
  const summary = await json(t, cookie, `/api/tracking/summary?${june}`);
  assert.equal(summary.current.uniqueVisitors, 0);
  assert.equal(summary.current.conversionRate, 0);
  assert.equal(averageLeadsPerDay(mergeDaily([], [], [])), 0);
});

appTest("dashboard: tracking stats with and without a period", async (t) => {
  const cookie = await ready(t);
  assert.deepEqual(await json(t, cookie, `/api/tracking/stats?${NOV}`), {
    clicks: 9,
    conversions: 4,
    rate: 44.4,
  });
  // Conversions are the stored leads (docs/METRICS.md): all time, the two outside November count too.
  assert.deepEqual(await json(t, cookie, "/api/tracking/stats"), { clicks: 9, conversions: 6, rate: 66.7 });
  await insertLead(t.db, sp("2026-06-01T10:00:00"), {
    name: "Junho",
    email: "jun@example.com",
    whatsapp: "6",
  });
  assert.deepEqual(await json(t, cookie, "/api/tracking/stats?startDate=2026-06-01&endDate=2026-06-01"), {
    clicks: 0,
    conversions: 1,
    rate: 0, // conversions without clicks: the rate is 0
  });
  // A conversion report is not a second count of its lead.
  await insertConversion(t.db, sp("2026-06-01T10:00:01"));
  assert.deepEqual(await json(t, cookie, "/api/tracking/stats?startDate=2026-06-01&endDate=2026-06-01"), {
    clicks: 0,
    conversions: 1,
    rate: 0,
  });
});

appTest("dashboard: rankings are ordered by visits, ties by name, pages as path plus query", async (t) => {
  const cookie = await ready(t);
  // google: v1 ×3 and v6; facebook: v2, v3, v4; instagram: v8 ×3 — a tie broken alphabetically.
  assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/utm-source?${NOV}`), [
    { utmSource: "google", visits: 4 },
    { utmSource: "facebook", visits: 3 },
    { utmSource: "instagram", visits: 3 },
  ]);
  assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/utm-campaign?${NOV}`), [
    { utmCampaign: "black-friday", visits: 5 },
    { utmCampaign: "reels", visits: 3 },
    { utmCampaign: "promo", visits: 2 },
  ]);
  assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/pages?${NOV}`), [
    { page: "/pt-br?utm_source=google", visits: 4 },
    { page: "/es", visits: 3 },
    { page: "/pt-br", visits: 2 },
    { page: "/pt-br/clientes", visits: 2 },
  ]);
  // "por caminho": the same visits by path alone.
  assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/pages?${NOV}&by=path`), [
    { page: "/pt-br", visits: 6 },
    { page: "/es", visits: 3 },
    { page: "/pt-br/clientes", visits: 2 },
  ]);
});

appTest("dashboard: pages by path plus query and by path alike, raw and rolled up", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const today = todayIn("America/Sao_Paulo", new Date());
  const range = `startDate=${today}&endDate=${today}`;
  // Page views sent as the browser saw them: a click id and a trailing slash are not part of the page.
  const sources = [
    "/pt-br?fbclid=a1",
    "/pt-br/?fbclid=a2",
    "/pt-br/",
    "/pt-br?utm_source=meta&fbclid=a3",
    "/pt-br/?utm_source=meta&gclid=g1",
    "/pt-br/clientes/?gclid=g2&x=1",
  ];
  for (const [i, source] of sources.entries()) {
    const res = await t.postJson("/api/tracking/visit", {
      source,
      sessionId: `1732233600000-s${i}`,
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
    }, { "x-forwarded-for": `203.0.113.${i + 1}` });
    assert.equal(res.status, 202, source);
  }
  const expected = async () => {
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/pages?${range}`), [
      { page: "/pt-br", visits: 3 },
      { page: "/pt-br?utm_source=meta", visits: 2 },
      { page: "/pt-br/clientes?x=1", visits: 1 },
    ]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/pages?${range}&by=path`), [
      { page: "/pt-br", visits: 5 },
      { page: "/pt-br/clientes", visits: 1 },
    ]);
  };
  await expected();
  await runRollups(t.db, "America/Sao_Paulo", new Date(Date.now() + 10 * 60_000));
  const [rolled] = await t.db.query<{ n: number }>(
    "select count(*)::int as n from daily_visit_ranks where dimension = 'page'",
  );
  assert.equal(rolled.n, 3);
  await expected();
  const bad = await getAs(t, cookie, `/api/tracking/rankings/pages?${range}&by=domain`);
  assert.equal(bad.status, 400);
  assert.deepEqual(Object.keys((await bad.json()).fields), ["by"]);
});

appTest(
  "dashboard: conversion by UTM source counts clicks and conversions (stored leads) per source",
  async (t) => {
    const cookie = await ready(t);
    // November's leads: google (30th), facebook (15th), two without a UTM source (1st, 15th); the conversion
    // reports (google ×2, facebook, instagram) are not counted again.
    assert.deepEqual(await json(t, cookie, `/api/tracking/conversion-by-utm-source?${NOV}`), [
      { utmSource: null, clicks: 3, conversions: 2, rate: 66.7 },
      { utmSource: "facebook", clicks: 3, conversions: 1, rate: 33.3 },
      { utmSource: "google", clicks: 3, conversions: 1, rate: 33.3 },
    ]);
  },
);

appTest("dashboard: leads without parameters are all leads; search and pagination narrow them", async (t) => {
  const cookie = await ready(t);
  const all = await getAs(t, cookie, "/api/leads");
  assert.equal(all.status, 200);
  assert.equal((await all.json()).length, 6);
  const lead = (await json(t, cookie, "/api/leads?q=maria"))[0];
  assert.deepEqual(lead, {
    id: lead.id,
    name: "Maria Souza",
    email: "maria@empresa.com.br",
    whatsapp: "+55 (11) 98888-7777",
    plan: "premium",
    planLabel: "Premium",
    submittedAt: "2026-11-15T15:00:00.000Z",
    utmSource: "facebook",
    utmCampaign: "promo",
    utmMedium: "social",
    utmContent: null,
    utmTerm: null,
    page: null,
    // The WhatsApp number's DDD 11 is São Paulo's; no WhatsApp message recorded (WhatsApp not configured).
    state: "SP",
    whatsappContact: null,
    // Stored without touches (as before migration 00011).
    ...Object.fromEntries(
      ["first", "last"].flatMap((t) =>
        ["Source", "Medium", "Campaign", "Channel", "LandingPage"].map((f) => [t + f, null])
      ),
    ),
  });
  // Digits match the WhatsApp number whatever its punctuation; % is literal, not a wildcard.
  assert.deepEqual((await json(t, cookie, "/api/leads?q=988887777")).map((l: { name: string }) => l.name), [
    "Maria Souza",
  ]);
  assert.deepEqual(await json(t, cookie, "/api/leads?q=%25"), []);
  const page = await getAs(t, cookie, "/api/leads?limit=2&offset=2");
  assert.equal(page.headers.get("x-total-count"), "6");
  assert.deepEqual((await page.json()).map((l: { name: string }) => l.name), [
    '=HYPERLINK("x")',
    "Maria Souza",
  ]);
});

appTest(
  "dashboard: search ignores case and accents in names and e-mails, within the period's index range",
  async (t, kind) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    for (let i = 0; i < 20; i++) {
      await insertLead(t.db, sp(`2026-11-${String(1 + i).padStart(2, "0")}T10:00:00`), {
        name: i % 2 ? `Luíza Gonçalves ${i}` : `LUIZA Souza ${i}`,
        email: i % 2 ? `luiza${i}@exemplo.com.br` : `JOÃO.${i}@Exemplo.COM`,
        whatsapp: "+55 11 91234-5678",
      });
    }
    await insertLead(t.db, sp("2026-11-21T10:00:00"), { name: "Zoë Ærø", email: "x@y.z", whatsapp: "1" });
    const names = async (q: string) => {
      const res = await getAs(t, cookie, `/api/leads?${NOV}&limit=100&q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, q);
      return (await res.json()).length as number;
    };
    assert.equal(await names("luiza"), 20);
    assert.equal(await names("Luíza"), 20);
    assert.equal(await names("LUÍZA"), 20);
    assert.equal(await names("goncalves"), 10);
    assert.equal(await names("GONÇALVES"), 10);
    assert.equal(await names("joao."), 10);
    assert.equal(await names("exemplo.com"), 20);
    assert.equal(await names("zoe"), 1);
    assert.equal(await names("ærø"), 1);
    assert.equal(await names("luiza_"), 0);
    if (kind === "postgres") {
      // The period bounds the search through the submitted_at index, not a scan of every lead.
      // (A tiny table is scanned whole when scans are allowed, so they are not, on this one connection.)
      const plan = await t.db.transaction(async (tx) => {
        await tx.query("set local enable_seqscan = off");
        return await tx.query<{ "QUERY PLAN": string }>(
          `explain select id from leads
            where submitted_at >= '2026-11-01T03:00Z' and submitted_at < '2026-12-01T03:00Z'
              and search_text like '%luiza%'`,
        );
      });
      assert.match(plan.map((r) => r["QUERY PLAN"]).join("\n"), /leads_submitted_at_idx/);
    }
  },
);

appTest(
  "dashboard: leads filter by plan and UTM source, oldest first on request, the export too",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    const rows: [string, string, "pro" | "premium", string | null][] = [
      ["2026-11-03T10:00:00", "A", "pro", "google"],
      ["2026-11-04T10:00:00", "B", "premium", "google"],
      ["2026-11-05T10:00:00", "C", "pro", null],
      ["2026-11-06T10:00:00", "D", "pro", "google"],
    ];
    for (const [at, name, plan, utmSource] of rows) {
      await insertLead(t.db, sp(at), { name, email: `${name}@x.com`, whatsapp: "1", plan, utmSource });
    }
    const names = async (query: string) => {
      const res = await getAs(t, cookie, `/api/leads?${NOV}&${query}`);
      assert.equal(res.status, 200, query);
      return {
        names: (await res.json()).map((l: { name: string }) => l.name),
        total: res.headers.get("x-total-count"),
      };
    };
    assert.deepEqual(await names("plan=pro"), { names: ["D", "C", "A"], total: "3" });
    assert.deepEqual(await names("plan=pro&utmSource=google"), { names: ["D", "A"], total: "2" });
    assert.deepEqual(await names("sort=oldest"), { names: ["A", "B", "C", "D"], total: "4" });
    assert.deepEqual(await names("sort=oldest&utmSource=google&limit=1&offset=1"), {
      names: ["B"],
      total: "3",
    });
    const csv = await (await getAs(t, cookie, `/api/leads/export.csv?${NOV}&plan=premium`)).text();
    assert.equal(csv.trim().split("\r\n").length, 2);
    const bad = await getAs(t, cookie, `/api/leads?${NOV}&plan=gold&sort=up`);
    assert.equal(bad.status, 400);
    const fields = Object.keys((await bad.json()).fields ?? {});
    assert.ok(fields.includes("plan") && fields.includes("sort"), JSON.stringify(fields));
  },
);

appTest("dashboard: bad dates and parameters answer 400 naming the fields", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const cases: [string, string[]][] = [
    ["/api/tracking/unique-visits", ["startDate", "endDate"]],
    ["/api/tracking/unique-visits?startDate=2026-02-30&endDate=2026-03-01", ["startDate"]],
    ["/api/tracking/rankings/pages?startDate=2026-11-10&endDate=2026-11-01", ["endDate"]],
    ["/api/tracking/stats?startDate=2026-11-10", ["endDate"]],
    ["/api/leads/analytics?days=0", ["days"]],
    ["/api/leads/analytics", ["days"]],
    ["/api/tracking/analytics?days=abc", ["days"]],
    ["/api/leads?limit=100000", ["limit"]],
    ["/api/tracking/summary?startDate=2020-01-01&endDate=2026-01-01", ["endDate"]],
    // A control character (here U+001F, which joins a pair's values in the roll-ups) is no filter value.
    [`/api/tracking/summary?${NOV}&f_channel=paid_social&f_utm_source=facebook%1Fx`, ["f_utm_source"]],
  ];
  for (const [path, fields] of cases) {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 400, path);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = await res.json();
    assert.equal(body.error, "validation", path);
    assert.deepEqual(Object.keys(body.fields).sort(), [...fields].sort(), path);
  }
});

appTest(
  "dashboard: every JSON answer the dashboard reads satisfies its schema in shared/schemas.ts",
  async (t) => {
    await seedNovember(t);
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    const [{ id }] = await t.db.query<{ id: number }>("select id from leads order by id limit 1");
    const answers: Array<[string, z.ZodType]> = [
      ["/api/admin/check-auth", schemas.authStatus],
      ["/api/config", schemas.publicConfig],
      [`/api/tracking/summary?${NOV}`, schemas.summary],
      [`/api/tracking/stats?${NOV}`, schemas.trackingStats],
      ["/api/tracking/stats", schemas.trackingStats],
      [`/api/leads/analytics?${NOV}`, schemas.dailySeries],
      [`/api/tracking/analytics?${NOV}`, schemas.dailySeries],
      [`/api/tracking/unique-visits?${NOV}`, schemas.dailySeries],
      [`/api/leads?${NOV}`, schemas.leadList],
      [`/api/tracking/rankings/utm-source?${NOV}`, schemas.utmSourceRanking],
      [`/api/tracking/rankings/utm-campaign?${NOV}`, schemas.utmCampaignRanking],
      [`/api/tracking/rankings/pages?${NOV}`, schemas.pageRanking],
      [`/api/tracking/rankings/sources?${NOV}`, schemas.sourceRanking],
      [`/api/tracking/rankings/entry-pages?${NOV}`, schemas.entryPageRanking],
      [`/api/tracking/conversion-by-utm-source?${NOV}`, schemas.conversionBySource],
      [`/api/tracking/channels?${NOV}`, schemas.channelReport],
      ["/api/admin/lgpd/leads?email=maria@empresa.com.br", schemas.personLeads],
      [`/api/admin/deliveries?leads=${id}`, schemas.deliveries],
      ["/api/admin/destinations", schemas.destinations],
      ["/api/admin/system", schemas.systemHealth],
      ["/api/admin/weekly-report", schemas.weeklyReportStatus],
    ];
    for (const [path, schema] of answers) {
      const res = await getAs(t, cookie, path);
      assert.equal(res.status, 200, path);
      const body = await res.json();
      const parsed = schema.safeParse(body);
      assert.ok(parsed.success, `${path}: ${parsed.error?.message}`);
      // Parsing drops keys a schema does not name: equal output means the answer has no field the schema lacks.
      assert.deepEqual(parsed.data, body, `${path} answers fields its schema does not describe`);
    }
    // The answers that carry data, so the checks above did not pass on empty lists.
    const leads = schemas.leadList.parse(await (await getAs(t, cookie, `/api/leads?${NOV}`)).json());
    assert.ok(leads.length > 0);
    const person = schemas.personLeads.parse(
      await (await getAs(t, cookie, "/api/admin/lgpd/leads?email=maria@empresa.com.br")).json(),
    );
    assert.equal(person.leads.length, 1);
    // A refusal, in the one error shape.
    const refused = await t.postJson("/api/admin/login", {
      email: "admin@example.com",
      password: "wrong one",
    });
    assert.equal(refused.status, 401);
    assert.deepEqual(schemas.refusedOutcome.parse(await refused.json()), {
      error: "bad_credentials",
      success: false,
      message: "E-mail ou senha inválidos.",
    });
  },
);
