// Plan and WhatsApp clicks under one filter, or a pair, from the roll-up (db/filter_actions.ts) are exactly the
// raw path's (db/filtered.ts), for every filter a click answers by its own column or through its session's page
// views (the page, UTM content and term) and three pairs of the former, over
// final days, the open day, cuts, several months and days before the data; the first run after the migration fills
// the days before it.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { seededTest } from "../../testing/seeded.ts";
import { seedAnalytics } from "../../testing/seed.ts";
import {
  filteredChannelActions,
  filteredConversionBySource,
  filteredDailyClicks,
  filteredEventTotals,
  filteredWhatsapp,
  filteredWhatsappTotal,
} from "./filtered.ts";
import {
  ACTION_FILTERS,
  rolledFilteredChannelActions,
  rolledFilteredConversionBySource,
  rolledFilteredDailyClicks,
  rolledFilteredEventTotals,
  rolledFilteredWhatsapp,
  rolledFilteredWhatsappTotal,
} from "./filter_actions.ts";
import {
  assertBackfillRefills,
  busiestFilters,
  busiestPairs,
  NOW,
  SEEDED,
  TZ,
} from "../../testing/rolled_filters.ts";
import type { Filters } from "../shared/filters.ts";
import { SESSION_VALUES } from "./session_keys.ts";

const PERIODS: { start: string; end: string; until: string | null }[] = [
  { start: "2026-11-01", end: "2026-11-30", until: null },
  { start: "2026-12-01", end: "2026-12-31", until: null },
  { start: "2026-11-02", end: "2026-12-02", until: null },
  { start: "2026-12-02", end: "2026-12-02", until: null },
  { start: "2026-12-01", end: "2026-12-01", until: "15:00:00" },
  { start: "2026-11-01", end: "2026-11-02", until: "15:00:00" },
  { start: "2026-12-02", end: "2026-12-02", until: "11:30:00" },
  { start: "2026-09-01", end: "2026-11-15", until: null },
];

const byKey = <T>(rows: T[], key: (r: T) => string | null) =>
  [...rows].sort((a, b) => String(key(a)).localeCompare(String(key(b))));

/** The busiest values of each filter a click answers by its own column or through its session's page views. */
async function actionFilters(db: Parameters<typeof busiestFilters>[0]): Promise<Filters[]> {
  return (await busiestFilters(db, 2)).filter((f) =>
    Object.keys(f).every((k) => k in ACTION_FILTERS || k in SESSION_VALUES)
  );
}

seededTest(
  "filter actions: the roll-up per filter value gives the raw rows' plan and WhatsApp clicks",
  SEEDED,
  async (db) => {
    const filters = await actionFilters(db);
    assert.equal(
      filters.length,
      16,
      "two values of each of the five click filters, the page, content and term",
    );
    const pairs = (await busiestPairs(db)).filter((f) => Object.keys(f).every((k) => k in ACTION_FILTERS));
    assert.equal(pairs.length, 3, "three pairs of click filters");
    let clicks = 0, whatsapp = 0;
    for (const f of [...filters, ...pairs]) {
      for (const p of PERIODS) {
        const range = { start: p.start, end: p.end };
        const at = `${JSON.stringify(f)} ${JSON.stringify(p)}`;
        const totals = await rolledFilteredEventTotals(db, range, TZ, p.until, f);
        assert.ok(totals, `${at}: the roll-up did not answer`);
        assert.deepEqual(totals, await filteredEventTotals(db, range, TZ, p.until, f), `${at}: totals`);
        clicks += totals.clicks;
        const wa = await rolledFilteredWhatsappTotal(db, range, TZ, p.until, f);
        assert.equal(wa, await filteredWhatsappTotal(db, range, TZ, p.until, f), `${at}: WhatsApp total`);
        whatsapp += wa!;
        if (p.until !== null) continue; // the reports below read whole days only
        assert.deepEqual(
          await rolledFilteredDailyClicks(db, range, TZ, f),
          await filteredDailyClicks(db, range, TZ, f),
          `${at}: daily clicks`,
        );
        assert.deepEqual(
          byKey((await rolledFilteredChannelActions(db, range, TZ, f))!, (r) => r.channel),
          byKey(await filteredChannelActions(db, range, TZ, f), (r) => r.channel),
          `${at}: clicks per channel`,
        );
        assert.deepEqual(
          await rolledFilteredConversionBySource(db, range, TZ, f),
          await filteredConversionBySource(db, range, TZ, f),
          `${at}: conversion by UTM source`,
        );
        const fast = (await rolledFilteredWhatsapp(db, range, TZ, f, 10))!;
        const raw = await filteredWhatsapp(db, range, TZ, f, 10);
        assert.deepEqual(fast.daily, raw.daily, `${at}: WhatsApp per day`);
        assert.deepEqual(fast.pages, raw.pages, `${at}: WhatsApp per page`);
        assert.deepEqual(byKey(fast.byChannel, (r) => r.channel), byKey(raw.byChannel, (r) => r.channel), at);
        assert.deepEqual(
          byKey(fast.bySource, (r) => r.utmSource),
          byKey(raw.bySource, (r) => r.utmSource),
          at,
        );
      }
    }
    assert.ok(clicks > 1000 && whatsapp > 200, `only ${clicks} plan and ${whatsapp} WhatsApp clicks counted`);
    // The figures are the roll-up's: without its rows, November falls to nothing (its raw part is in December).
    const f = filters[0], november = { start: "2026-11-01", end: "2026-11-30" };
    assert.ok((await rolledFilteredEventTotals(db, november, TZ, null, f))!.clicks > 0);
    await db.query("delete from daily_filter_actions");
    assert.equal((await rolledFilteredEventTotals(db, november, TZ, null, f))!.clicks, 0);
  },
);

dbTest("filter actions: the first run after the migration fills the days rolled up before it", async (db) => {
  await seedAnalytics(db, { visits: 800, days: 10, timeZone: TZ, now: NOW, seed: 4 });
  const f = { channel: "direct" }, period = { start: "2026-11-25", end: "2026-12-02" };
  const read = () => rolledFilteredEventTotals(db, period, TZ, null, f);
  const rolled = await read();
  assert.ok(rolled && rolled.clicks > 0);
  await assertBackfillRefills(db, "daily_filter_actions", "filter_actions_backfill", read, rolled);
  // Three filters, a pair with a filter clicks answer through their session's page views, and the audience are
  // not rolled up.
  for (
    const other of [
      { channel: "direct", utm_source: "google", utm_campaign: "x" },
      { channel: "direct", utm_term: "x" },
      { page: "/pt-br", channel: "direct" },
      { device: "mobile" },
    ]
  ) {
    assert.equal(await rolledFilteredEventTotals(db, period, TZ, null, other), null, JSON.stringify(other));
  }
});
