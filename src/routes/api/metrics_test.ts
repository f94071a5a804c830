// One word, one formula (docs/METRICS.md): for the same period and the same channel or UTM source, every
// endpoint that shows leads (or conversions, the API's word for them) or a conversion rate gives the same
// number. The traffic is written through the public API only, as browsers write it, including what really
// happens: a conversion report lost on the way, one sent twice, one that arrives after midnight for a lead
// sent before it, a lead re-sent from the browser's outbox an hour later; half of it rolled up.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { invariantViolations } from "../../../testing/invariants.ts";
import { runRollups } from "../../services/rollups.ts";
import { mergeDaily, ratePercent, sumCounts } from "../../shared/dashboard_math.ts";
import type { DailyCount } from "../../shared/dashboard_math.ts";

const TZ = "America/Sao_Paulo";
let clock = new Date("2026-11-20T12:00:00Z");
const at = (local: string) => (clock = new Date(local + "-03:00"));

interface Touch {
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  referrer?: string;
  clickIds?: Record<string, boolean>;
}

/** A browser session from one address, as the site's scripts report it. */
function browser(t: TestApp, ip: string, sessionId: string, touch: Touch) {
  const headers = { "x-forwarded-for": ip };
  const utm = {
    utmSource: touch.utmSource ?? null,
    utmMedium: touch.utmMedium ?? null,
    utmCampaign: touch.utmCampaign ?? null,
  };
  const session = { sessionId, ...utm, referrer: touch.referrer, clickIds: touch.clickIds };
  const landing = "/pt-br" + (touch.utmSource ? `?utm_source=${touch.utmSource}` : "");
  let views = 0;
  const post = async (path: string, body: unknown) => {
    const res = await t.postJson(path, body, headers);
    assert.ok(res.status === 202 || res.status === 201, `${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  return {
    view: (page = landing) =>
      post("/api/tracking/visit", {
        ...session,
        source: views ? page : landing,
        utmTerm: null,
        utmContent: null,
        entry: views++ === 0,
      }),
    click: (plan: string) => post("/api/tracking/click", { ...session, source: `pricing_${plan}_plan` }),
    lead: (name: string, plan: string, submittedAt?: Date) =>
      post("/api/leads", {
        name,
        email: `${name.toLowerCase().replace(/\W/g, ".")}@exemplo.com.br`,
        whatsapp: "+55 11 91234-5678",
        plan,
        ...utm,
        page: "http://localhost:8000" + landing,
        sessionId,
        idempotencyKey: `${sessionId}-${name}`.replace(/\W/g, "-"),
        submittedAt: submittedAt?.getTime(),
        referrer: touch.referrer,
        clickIds: touch.clickIds,
        landingPage: landing,
      }),
    conversion: (plan: string) =>
      post("/api/tracking/conversion", { ...session, source: `pricing_${plan.toLowerCase()}_plan` }),
  };
}

async function traffic(t: TestApp) {
  // 20 November: Meta ads, Google Ads (report lost), a newsletter reader who clicks twice.
  at("2026-11-20T10:00:00");
  const meta = browser(t, "203.0.113.1", "s-meta", {
    utmSource: "facebook",
    utmMedium: "paid_social",
    utmCampaign: "black-friday",
    referrer: "lm.facebook.com",
    clickIds: { fbclid: true },
  });
  await meta.view();
  await meta.view("/pt-br/clientes");
  await meta.click("pro");
  await meta.lead("Ana Meta", "Pro");
  await meta.conversion("Pro");

  at("2026-11-20T11:00:00");
  const ads = browser(t, "203.0.113.2", "s-ads", {
    referrer: "www.google.com.br",
    clickIds: { gclid: true },
  });
  await ads.view();
  await ads.click("micro");
  await ads.lead("Bruno Ads", "Micro"); // its conversion report never arrives

  at("2026-11-20T15:00:00");
  const mail = browser(t, "203.0.113.3", "s-mail", {
    utmSource: "newsletter",
    utmMedium: "email",
    utmCampaign: "semanal",
  });
  await mail.view();
  await mail.click("premium");
  await mail.click("premium");
  await mail.lead("Carla Mail", "Premium");
  await mail.conversion("Premium");

  // Half of the traffic rolled up, as the job does every five minutes.
  at("2026-11-20T20:00:00");
  await runRollups(t.db, TZ, clock);

  // 21 November: Google Ads again (report sent twice), organic search (no lead), Instagram at midnight.
  at("2026-11-21T09:00:00");
  const ads2 = browser(t, "203.0.113.4", "s-ads2", {
    referrer: "www.google.com.br",
    clickIds: { gclid: true },
  });
  await ads2.view();
  await ads2.click("pro");
  await ads2.lead("Diego Ads", "Pro");
  await ads2.conversion("Pro");
  await ads2.conversion("Pro"); // refused: the session has one lead

  at("2026-11-21T10:00:00");
  const organic = browser(t, "203.0.113.5", "s-organic", { referrer: "www.google.com.br" });
  await organic.view();
  await organic.click("micro");

  at("2026-11-21T23:58:00");
  const insta = browser(t, "203.0.113.6", "s-insta", {
    utmSource: "instagram",
    utmMedium: "social",
    utmCampaign: "bio",
    referrer: "l.instagram.com",
  });
  await insta.view();
  await insta.click("pro");
  at("2026-11-21T23:59:59");
  await insta.lead("Eva Insta", "Pro");
  at("2026-11-22T00:00:01");
  await insta.conversion("Pro"); // stored on the 22nd for a lead of the 21st

  // 22 November: a lead the browser kept in its outbox (sent at 08:30, delivered at 09:30).
  at("2026-11-22T08:25:00");
  const late = browser(t, "203.0.113.7", "s-late", {
    utmSource: "facebook",
    utmMedium: "paid_social",
    utmCampaign: "remarketing",
    referrer: "lm.facebook.com",
    clickIds: { fbclid: true },
  });
  await late.view();
  await late.click("premium");
  at("2026-11-22T09:30:00");
  await late.lead("Fabio Late", "Premium", new Date("2026-11-22T08:30:00-03:00"));
  await late.conversion("Premium");
  at("2026-11-22T09:40:00");
}

interface Figures {
  /** Leads (conversions) and rate per key, per endpoint. */
  [endpoint: string]: Record<string, { leads: number; rate: number }>;
}

/** What every card and endpoint says about leads and the rate for one period. */
async function figures(t: TestApp, cookie: string, start: string, end: string): Promise<Figures> {
  const q = `startDate=${start}&endDate=${end}`;
  const get = async <T>(path: string) => {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return { body: (await res.json()) as T, res };
  };
  const stats = (await get<{ clicks: number; conversions: number; rate: number }>(`/api/tracking/stats?${q}`))
    .body;
  const summary = (await get<{
    current: { clicks: number; conversions: number; leads: number; conversionRate: number; leadRate: number };
  }>(`/api/tracking/summary?${q}`)).body.current;
  const leadSeries = (await get<DailyCount[]>(`/api/leads/analytics?${q}`)).body;
  const clickSeries = (await get<DailyCount[]>(`/api/tracking/analytics?${q}`)).body;
  const chart = mergeDaily(leadSeries, clickSeries, []);
  const list = await get<{ lastChannel: string; utmSource: string | null }[]>(`/api/leads?${q}`);
  const channels = (await get<{
    current: {
      channel: string;
      clicks: number;
      leads: number;
      conversions: number;
      leadRate: number;
      conversionRate: number;
    }[];
  }>(`/api/tracking/channels?${q}`)).body.current;
  const bySource =
    (await get<{ utmSource: string | null; clicks: number; conversions: number; rate: number }[]>(
      `/api/tracking/conversion-by-utm-source?${q}`,
    )).body;

  const leads = sumCounts(leadSeries);
  const clicks = sumCounts(clickSeries);
  const out: Figures = {
    "Conversões, Taxa de conversão (stats)": { all: { leads: stats.conversions, rate: stats.rate } },
    "Conversões (summary)": { all: { leads: summary.conversions, rate: summary.conversionRate } },
    "Total de leads (summary)": { all: { leads: summary.leads, rate: summary.leadRate } },
    "Gráfico (soma dos dias)": { all: { leads, rate: ratePercent(leads, clicks) } },
    "Lista de leads": { all: { leads: list.body.length, rate: ratePercent(list.body.length, stats.clicks) } },
    "Canais": {},
    "Conversão por canal": {},
    "Conversão por origem": {},
    "Lista de leads por canal e origem": {},
  };
  // A one-day period is one chart point: its merged rate is the day's.
  if (start === end) {
    out["Gráfico (ponto do dia)"] = {
      all: { leads: chart[0]?.leads ?? 0, rate: chart[0]?.conversionRate ?? 0 },
    };
  }
  for (const c of channels) {
    out["Canais"][c.channel] = { leads: c.leads, rate: c.leadRate };
    out["Conversão por canal"][c.channel] = { leads: c.conversions, rate: c.conversionRate };
  }
  for (const s of bySource) {
    out["Conversão por origem"][s.utmSource ?? ""] = { leads: s.conversions, rate: s.rate };
  }
  // The lead list filtered as the dashboard filters it, with the clicks the tables show beside them.
  const listed = out["Lista de leads por canal e origem"];
  for (const c of channels) {
    const n = list.body.filter((l) => l.lastChannel === c.channel).length;
    listed[c.channel] = { leads: n, rate: ratePercent(n, c.clicks) };
  }
  for (const s of bySource) {
    const n = list.body.filter((l) => (l.utmSource ?? "") === (s.utmSource ?? "")).length;
    listed[s.utmSource ?? ""] = { leads: n, rate: ratePercent(n, s.clicks) };
  }
  return out;
}

/** The figures every endpoint must agree on, by key ("all", a channel, or a UTM source). */
function agreement(f: Figures): Record<string, Record<string, { leads: number; rate: number }>> {
  const byKey: Record<string, Record<string, { leads: number; rate: number }>> = {};
  for (const [endpoint, rows] of Object.entries(f)) {
    for (const [key, value] of Object.entries(rows)) (byKey[key] ??= {})[endpoint] = value;
  }
  return byKey;
}

appTest(
  "metrics: for one period and one channel or source, every endpoint gives the same leads and the same rate",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await traffic(t);
    const periods: [string, string, number][] = [
      ["2026-11-01", "2026-11-30", 6],
      ["2026-11-20", "2026-11-20", 3],
      ["2026-11-21", "2026-11-21", 2],
      ["2026-11-22", "2026-11-22", 1],
    ];
    for (const [start, end, leads] of periods) {
      const byKey = agreement(await figures(t, cookie, start, end));
      for (const [key, endpoints] of Object.entries(byKey)) {
        const values = Object.values(endpoints);
        assert.ok(
          values.every((v) => v.leads === values[0].leads && v.rate === values[0].rate),
          `${start}..${end}, ${key}: ${JSON.stringify(endpoints, null, 1)}`,
        );
      }
      assert.equal(byKey.all["Total de leads (summary)"].leads, leads, `${start}..${end}`);
    }
    // The month, by hand: 8 plan clicks and 6 leads, per channel and per UTM source as the visitors came.
    const month = agreement(await figures(t, cookie, "2026-11-01", "2026-11-30"));
    assert.deepEqual(month.all["Conversões (summary)"], { leads: 6, rate: 75 });
    assert.deepEqual(month.paid_search.Canais, { leads: 2, rate: 100 });
    assert.deepEqual(month.paid_social.Canais, { leads: 2, rate: 100 });
    assert.deepEqual(month.email.Canais, { leads: 1, rate: 50 });
    assert.deepEqual(month.organic_social.Canais, { leads: 1, rate: 100 });
    assert.deepEqual(month.organic_search.Canais, { leads: 0, rate: 0 });
    assert.deepEqual(month.facebook["Conversão por origem"], { leads: 2, rate: 100 });
    assert.deepEqual(month.newsletter["Conversão por origem"], { leads: 1, rate: 50 });
    assert.deepEqual(month[""]["Conversão por origem"], { leads: 2, rate: ratePercent(2, 3) });

    // And what the API wrote is a state production can be in (the seed's rules are production's).
    assert.deepEqual(await invariantViolations(t.db, { timeZone: TZ, attributionDays: 30, now: clock }), {});
  },
  { now: () => clock, env: { TRUST_PROXY: "1" } },
);
