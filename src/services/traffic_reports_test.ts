// The new panels' numbers, computed by hand from a small fixture in São Paulo days (UTC-3): raw rows only,
// then with the roll-up watermark inside the period, then with everything rolled up.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../testing/admin.ts";
import {
  insertClick,
  insertConversion,
  insertLead,
  insertVisit,
  sp,
} from "../../testing/analytics_fixture.ts";
import { runRollups } from "./rollups.ts";

const TZ = "America/Sao_Paulo";
const PERIOD = "startDate=2026-11-10&endDate=2026-11-11"; // the previous period: 8 and 9 November
const GOOGLE = { trafficSource: "google", channel: "organic_search" };
const ADS = { trafficSource: "google", channel: "paid_search" };
const IG = { trafficSource: "instagram", channel: "organic_social" };
const DIRECT = { trafficSource: "direto", channel: "direct" };
const entry = <T>(touch: T) => ({ ...touch, entry: true });

async function seed(t: TestApp) {
  const visit = (at: string, page: string, touch: object) => insertVisit(t.db, sp(at), "k", page, {}, touch);
  // The period.
  await visit("2026-11-10T00:30:00", "/pt-br", entry(GOOGLE)); // 03:30 UTC
  await visit("2026-11-10T00:35:00", "/pt-br/clientes", GOOGLE);
  await visit("2026-11-10T09:00:00", "/pt-br", {}); // stored before migration 00011: no channel
  await visit("2026-11-10T23:50:00", "/pt-br?utm_source=ig", entry(IG)); // 02:50 UTC on the 11th
  await visit("2026-11-11T10:00:00", "/pt-br", entry(DIRECT));
  await visit("2026-11-11T11:00:00", "/pt-br", entry(DIRECT));
  await visit("2026-11-11T12:00:00", "/pt-br/pipefy-whatsapp-integracao", entry(GOOGLE));
  await visit("2026-11-11T23:59:00", "/pt-br/pipefy-whatsapp-integracao", entry(ADS)); // 02:59 UTC on the 12th
  // The previous period.
  await visit("2026-11-08T12:00:00", "/pt-br", entry(GOOGLE));
  await visit("2026-11-09T15:00:00", "/pt-br/clientes", GOOGLE);
  await visit("2026-11-09T23:59:00", "/pt-br", entry(IG));
  // After the period: the 12th in São Paulo (03:10 UTC).
  await visit("2026-11-12T00:10:00", "/pt-br", entry(GOOGLE));
  // Before the previous period.
  await visit("2026-11-07T23:59:00", "/pt-br", entry(IG));

  const click = (at: string, touch: object) => insertClick(t.db, sp(at), {}, "pricing_pro_plan", touch);
  await click("2026-11-10T00:40:00", GOOGLE);
  await click("2026-11-11T09:00:00", GOOGLE);
  await click("2026-11-11T10:05:00", DIRECT);
  await click("2026-11-11T23:59:30", ADS);
  await click("2026-11-10T08:00:00", {}); // no channel
  await click("2026-11-08T12:05:00", GOOGLE);
  const conversion = (at: string, touch: object) =>
    insertConversion(t.db, sp(at), {}, "pricing_pro_plan", touch);
  await conversion("2026-11-10T00:45:00", GOOGLE);
  await conversion("2026-11-11T23:59:50", ADS);
  const lead = (at: string, name: string, lastChannel?: string) =>
    insertLead(t.db, sp(at), { name, email: `${name}@example.com`, whatsapp: "1", lastChannel });
  await lead("2026-11-10T00:45:00", "ana", "organic_search");
  await lead("2026-11-11T23:59:50", "bia", "paid_search");
  await lead("2026-11-10T12:00:00", "old"); // stored before migration 00011: no touch
  await lead("2026-11-08T12:10:00", "caio", "organic_search");
  await lead("2026-11-12T00:01:00", "davi", "direct"); // the 12th
}

const row = (
  channel: string,
  visits: number,
  clicks: number,
  conversions: number,
  leads: number,
  leadRate: number,
  conversionRate: number,
) => ({ channel, visits, clicks, conversions, leads, leadRate, conversionRate });

const EXPECTED = {
  [`/api/tracking/channels?${PERIOD}`]: {
    current: [
      row("organic_search", 3, 2, 1, 1, 50, 50),
      row("direct", 2, 1, 0, 0, 0, 0),
      row("paid_search", 1, 1, 1, 1, 100, 100),
      row("organic_social", 1, 0, 0, 0, 0, 0),
    ],
    previous: [
      row("organic_search", 2, 1, 1, 1, 100, 100), // a conversion is its stored lead
      row("organic_social", 1, 0, 0, 0, 0, 0),
    ],
    comparison: { start: "2026-11-08", end: "2026-11-09" },
  },
  [`/api/tracking/rankings/sources?${PERIOD}`]: [
    { source: "google", visits: 4, previousVisits: 2 },
    { source: "direto", visits: 2, previousVisits: 0 },
    { source: "instagram", visits: 1, previousVisits: 1 },
  ],
  [`/api/tracking/rankings/entry-pages?${PERIOD}`]: [
    // By path: the Instagram entry on /pt-br?utm_source=ig counts for /pt-br.
    { page: "/pt-br", visits: 4, previousVisits: 2 },
    { page: "/pt-br/pipefy-whatsapp-integracao", visits: 2, previousVisits: 0 },
  ],
};

async function answers(t: TestApp, cookie: string) {
  const out: Record<string, unknown> = {};
  for (const path of Object.keys(EXPECTED)) {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 200, path);
    out[path] = await res.json();
  }
  return out;
}

appTest(
  "traffic reports: channels, sources and entry pages by hand, in São Paulo days, raw and rolled up",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await seed(t);
    assert.deepEqual(await answers(t, cookie), EXPECTED);
    // Watermark inside the period (19:58 on the 11th), then past everything: the same numbers.
    await runRollups(t.db, TZ, sp("2026-11-11T20:00:00"));
    assert.deepEqual(await answers(t, cookie), EXPECTED);
    await runRollups(t.db, TZ, sp("2026-11-14T00:00:00"));
    const [rows] = await t.db.query<{ n: number }>("select count(*)::int as n from daily_channel_actions");
    assert.ok(rows.n > 0);
    assert.deepEqual(await answers(t, cookie), EXPECTED);
  },
  // The period is over: compared with the two days before it.
  { now: () => sp("2026-11-14T00:00:00") },
);

appTest("traffic reports: the new endpoints need the administrator and a valid period", async (t) => {
  for (const path of Object.keys(EXPECTED)) {
    assert.equal((await t.request(path)).status, 401, path);
  }
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const bad = await getAs(t, cookie, "/api/tracking/channels?startDate=2026-11-10&endDate=nope");
  assert.equal(bad.status, 400);
  assert.ok("endDate" in (await bad.json()).fields);
});
