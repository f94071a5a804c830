// WhatsApp clicks (migrations/00017): stored by POST /api/tracking/click with kind `whatsapp`, counted apart from
// the plan clicks everywhere (raw rows and roll-ups alike), and the one-day period hour by hour.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import {
  insertClick,
  insertLead,
  insertVisit,
  insertWhatsappClick,
  sp,
} from "../../../testing/analytics_fixture.ts";
import { runRollups } from "../../services/rollups.ts";
import { hourlyReport } from "../../services/whatsapp_reports.ts";

const click = {
  source: "pricing_pro_plan",
  sessionId: "1732233600000-k3j4h5",
  utmSource: "google",
  utmCampaign: null,
  utmMedium: null,
};

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
  "whatsapp clicks: stored with kind whatsapp and the page's path; a plan button's click stays a plan click",
  async (t) => {
    const wa = {
      ...click,
      source: "/pt-br/pipefy-whatsapp-integracao?utm_source=google&gclid=x",
      kind: "whatsapp",
    };
    assert.equal((await t.postJson("/api/tracking/click", wa)).status, 202);
    assert.equal((await t.postJson("/api/tracking/click", click)).status, 202);
    assert.equal((await t.postJson("/api/tracking/click", { ...click, kind: null })).status, 202);
    assert.equal((await t.postJson("/api/tracking/click", { ...click, kind: "plan" })).status, 202);
    const rows = await t.db.query<{ kind: string; source: string; channel: string | null }>(
      "select kind, source, channel from clicks order by id",
    );
    assert.deepEqual(rows.map((r) => [r.kind, r.source]), [
      ["whatsapp", "/pt-br/pipefy-whatsapp-integracao"],
      ["plan", "pricing_pro_plan"],
      ["plan", "pricing_pro_plan"],
      ["plan", "pricing_pro_plan"],
    ]);
    // The session's touch is derived for it as for a plan click.
    assert.equal(rows[0].channel, rows[1].channel);
  },
);

appTest(
  "whatsapp clicks: a bad kind, or a WhatsApp click whose source is not a page, is a 400 naming it",
  async (t) => {
    const bad = await t.postJson("/api/tracking/click", { ...click, kind: "phone" });
    assert.equal(bad.status, 400);
    assert.ok("kind" in (await bad.json()).fields);
    const notPage = await t.postJson("/api/tracking/click", {
      ...click,
      kind: "whatsapp",
      source: "https://evil.example/",
    });
    assert.equal(notPage.status, 400);
    assert.deepEqual(Object.keys((await notPage.json()).fields), ["source"]);
    // The conversion endpoint keeps its documented fields only.
    const conv = await t.postJson("/api/tracking/conversion", { ...click, kind: "whatsapp" });
    assert.equal(conv.status, 400);
    const [{ n }] = await t.db.query<{ n: number }>("select count(*)::int as n from clicks");
    assert.equal(n, 0);
  },
);

/** Plan clicks and WhatsApp clicks on two November days, with channels, sources and pages. */
async function seed(t: TestApp) {
  const google = { utmSource: "google" };
  const paid = { trafficSource: "google", channel: "paid_search" };
  await insertClick(t.db, sp("2026-11-10T09:00:00"), google, "pricing_pro_plan", paid);
  await insertClick(t.db, sp("2026-11-10T10:00:00"));
  await insertWhatsappClick(t.db, sp("2026-11-10T09:30:00"), "/pt-br", google, paid);
  await insertWhatsappClick(t.db, sp("2026-11-10T11:00:00"), "/pt-br", google, paid);
  await insertWhatsappClick(t.db, sp("2026-11-11T23:30:00"), "/pt-br/pipefy-whatsapp-integracao");
  await insertLead(t.db, sp("2026-11-10T09:40:00"), { name: "A", email: "a@b.co", whatsapp: "1", ...google });
}

const NOV = "startDate=2026-11-01&endDate=2026-11-30";

/** Every figure that reads clicks, as the dashboard asks for them. */
async function figures(get: (path: string) => Promise<Record<string, unknown>>) {
  const summary = await get(`/api/tracking/summary?${NOV}`);
  return {
    stats: await get(`/api/tracking/stats?${NOV}`),
    clicks: (summary.current as { clicks: number }).clicks,
    daily: await get(`/api/tracking/analytics?${NOV}`),
    bySource: await get(`/api/tracking/conversion-by-utm-source?${NOV}`),
    channels: ((await get(`/api/tracking/channels?${NOV}`)).current as { channel: string; clicks: number }[])
      .map((r) => [r.channel, r.clicks]),
    whatsapp: await get(`/api/tracking/whatsapp?${NOV}`),
  };
}

appTest(
  "whatsapp clicks: counted apart from plan clicks, the same from raw rows and from the roll-ups",
  async (t) => {
    await seed(t);
    const get = await admin(t);
    const raw = await figures(get);
    assert.deepEqual(raw.stats, { clicks: 2, conversions: 1, rate: 50 });
    assert.equal(raw.clicks, 2);
    assert.deepEqual(raw.daily, [{ date: "2026-11-10", count: 2 }]);
    assert.deepEqual(raw.whatsapp, {
      total: 3,
      previous: { start: "2026-10-01", end: "2026-10-31", until: null, total: 0 },
      daily: [{ date: "2026-11-10", count: 2 }, { date: "2026-11-11", count: 1 }],
      byChannel: [{ channel: "paid_search", whatsappClicks: 2 }],
      bySource: [{ utmSource: "google", whatsappClicks: 2 }, { utmSource: null, whatsappClicks: 1 }],
      pages: [{ page: "/pt-br", clicks: 2 }, { page: "/pt-br/pipefy-whatsapp-integracao", clicks: 1 }],
    });
    // Roll everything up (the watermark passes every event): the answers do not change.
    await runRollups(t.db, "America/Sao_Paulo", new Date("2026-12-05T12:00:00Z"));
    const [totals] = await t.db.query(
      "select sum(clicks)::int as clicks, sum(whatsapp_clicks)::int as whatsapp from daily_totals",
    );
    assert.deepEqual(totals, { clicks: 2, whatsapp: 3 });
    const [channels] = await t.db.query(
      "select sum(clicks)::int as clicks, sum(whatsapp_clicks)::int as whatsapp from daily_channel_actions",
    );
    assert.deepEqual(channels, { clicks: 1, whatsapp: 2 });
    assert.deepEqual(await figures(get), raw);
  },
  { now: () => new Date("2026-12-05T12:00:00Z") },
);

appTest(
  "hourly: a São Paulo day has 24 hours; counts fall in their local hour; the hour under way is partial",
  async (t) => {
    await seed(t);
    await insertVisit(t.db, sp("2026-11-10T09:10:00"), "v1", "/pt-br");
    await insertVisit(t.db, sp("2026-11-10T09:50:00"), "v1", "/pt-br");
    await insertVisit(t.db, sp("2026-11-10T09:55:00"), "v2", "/pt-br");
    await insertVisit(t.db, sp("2026-11-10T00:00:00"), "v3", "/pt-br");
    await insertVisit(t.db, sp("2026-11-09T23:59:59"), "v4", "/pt-br"); // the day before
    const get = await admin(t);
    const day = await get("/api/tracking/hourly?date=2026-11-10") as {
      available: boolean;
      hours: {
        label: string;
        state: string;
        visits: number | null;
        clicks: number | null;
        whatsappClicks: number | null;
        leads: number | null;
        conversionRate: number | null;
      }[];
    };
    assert.equal(day.available, true);
    assert.equal(day.hours.length, 24);
    assert.deepEqual(day.hours.map((h) => h.label).slice(0, 3), ["00:00", "01:00", "02:00"]);
    assert.deepEqual(day.hours[0], { ...day.hours[0], visits: 1, clicks: 0 });
    assert.deepEqual(
      [
        day.hours[9].visits,
        day.hours[9].clicks,
        day.hours[9].whatsappClicks,
        day.hours[9].leads,
        day.hours[9].conversionRate,
      ],
      [2, 1, 1, 1, 100],
    );
    assert.deepEqual([day.hours[10].clicks, day.hours[11].whatsappClicks], [1, 1]);
    assert.ok(day.hours.every((h) => h.state === "done"));

    // At 14:20 in São Paulo on that day: 14:00 is under way, later hours have no counts.
    const live = await hourlyReport(t.db, "2026-11-10", "America/Sao_Paulo", sp("2026-11-10T14:20:00"));
    assert.deepEqual(live.hours.map((h) => h.state).slice(13, 16), ["done", "partial", "future"]);
    assert.equal(live.hours[15].visits, null);
    assert.equal(live.hours[14].visits, 0);
  },
  { now: () => new Date("2026-12-05T12:00:00Z") },
);

appTest(
  "hourly: any ANALYTICS_TZ: a day when the clocks go back has 25 hours, each event in exactly one",
  async (t) => {
    // New York leaves daylight saving on 1 November 2026 at 02:00 EDT (06:00 UTC): 01:00 comes twice.
    await insertWhatsappClick(t.db, new Date("2026-11-01T05:30:00Z"), "/en"); // 01:30 EDT
    await insertWhatsappClick(t.db, new Date("2026-11-01T06:30:00Z"), "/en"); // 01:30 EST
    await insertWhatsappClick(t.db, new Date("2026-11-02T04:59:00Z"), "/en"); // 23:59 EST
    await insertWhatsappClick(t.db, new Date("2026-11-02T05:00:00Z"), "/en"); // the next day
    const report = await hourlyReport(
      t.db,
      "2026-11-01",
      "America/New_York",
      new Date("2026-11-05T00:00:00Z"),
    );
    assert.equal(report.hours.length, 25);
    assert.deepEqual(report.hours.map((h) => h.label).slice(0, 4), ["00:00", "01:00", "01:00", "02:00"]);
    assert.deepEqual(report.hours.map((h) => h.whatsappClicks).filter((n) => n), [1, 1, 1]);
    assert.equal(report.hours[1].whatsappClicks, 1);
    assert.equal(report.hours[2].whatsappClicks, 1);
    assert.equal(report.hours[24].whatsappClicks, 1);
  },
);

appTest("hourly: a day whose raw rows are purged has no hours (only its daily roll-up)", async (t) => {
  await t.db.query(
    "insert into rollup_state (through, until, purged_through) values ('2026-11-10', null, '2026-11-10')",
  );
  const report = await hourlyReport(
    t.db,
    "2026-11-10",
    "America/Sao_Paulo",
    new Date("2026-12-05T00:00:00Z"),
  );
  assert.deepEqual(report, { date: "2026-11-10", available: false, hours: [] });
  assert.equal((await hourlyReport(t.db, "2026-11-11", "America/Sao_Paulo", new Date())).hours.length, 24);
});

appTest("hourly: a date that is not yyyy-MM-dd is a 400 naming date", async (t) => {
  await seedAdmin(t.db);
  const res = await getAs(t, await signIn(t), "/api/tracking/hourly?date=10/11/2026");
  assert.equal(res.status, 400);
  assert.deepEqual(Object.keys((await res.json()).fields), ["date"]);
});
