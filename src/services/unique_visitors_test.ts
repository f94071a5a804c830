// Unique visitors across a month's end (docs/UNIQUE_VISITORS.md): fourteen known addresses visit between
// September and 3 November 2026 (São Paulo), through the same key functions and batched writer as
// POST /api/tracking/visit, and the dashboard's figures must count each address once per period.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../testing/admin.ts";
import { insertClick, insertLead, sp } from "../../testing/analytics_fixture.ts";
import { runRollups } from "./rollups.ts";
import { recordEvent } from "./tracking.ts";
import { VisitorKeys } from "./visitor_key.ts";

const TZ = "America/Sao_Paulo";
// Tuesday 3 November 2026, 12:00 in São Paulo.
const NOW = sp("2026-11-03T12:00:00");

// Address -> local visit times. The last three visits fall within the roll-up grace (still raw after a run).
const VISITS: Record<string, string[]> = {
  "203.0.113.1": ["2026-10-28T10:00", "2026-11-02T10:00"], // A: both sides of the month's end
  "203.0.113.2": ["2026-10-10T10:00", "2026-11-01T10:00"], // B
  "203.0.113.3": ["2026-09-20T10:00", "2026-10-06T10:00"], // C: previous 30 days and these 30
  "203.0.113.4": ["2026-11-03T11:59"], // D: today, raw
  "203.0.113.5": ["2026-10-31T23:30", "2026-11-01T00:30"], // E: an hour apart, two months
  "203.0.113.6": ["2026-10-29T10:00"], // F
  "203.0.113.7": ["2026-09-10T10:00", "2026-09-30T10:00", "2026-10-02T10:00"], // G: previous period only
  "203.0.113.8": ["2026-10-04T10:00", "2026-10-05T10:00"], // H: the last day before, the first day of
  "203.0.113.9": ["2026-10-05T10:00", "2026-10-20T10:00", "2026-11-03T11:59"], // I: also today, raw
  "203.0.113.10": ["2026-09-15T10:00", "2026-11-02T10:00"], // J: 48 days apart, three months
  "203.0.113.11": ["2026-11-01T08:00", "2026-11-01T09:00", "2026-11-02T10:00"], // K
  "203.0.113.12": ["2026-10-15T10:00"], // L
  "203.0.113.13": ["2026-10-30T10:00", "2026-10-31T10:00"], // M
  "2001:db8::14": ["2026-10-25T10:00", "2026-11-03T11:59"], // N: previous 7 days and today, raw
};

async function seed(t: TestApp) {
  const keys = new VisitorKeys(t.db, TZ);
  const visits = Object.entries(VISITS).flatMap(([ip, times]) =>
    times.map((time) => ({ ip, at: sp(time + ":00") }))
  )
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const { ip, at } of visits) {
    const key = await keys.key(ip, at);
    const links = await keys.linkKeys(ip, at);
    const input = {
      source: "/pt-br",
      sessionId: "s",
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
      utmTerm: null,
      utmContent: null,
    };
    await recordEvent(t.db, "visit", input, key, at, links);
  }
  for (const day of ["2026-10-28", "2026-11-01", "2026-11-02", "2026-10-10"]) {
    await insertClick(t.db, sp(day + "T10:05:00"));
  }
  await insertLead(t.db, sp("2026-11-02T10:10:00"), { name: "A", email: "a@example.com", whatsapp: "1" });
  await insertLead(t.db, sp("2026-10-12T10:10:00"), { name: "B", email: "b@example.com", whatsapp: "2" });
}

interface Summary {
  current: { uniqueVisitors: number; clicks: number; leads: number; approximate: boolean };
  previous: { uniqueVisitors: number; approximate: boolean };
}

async function summary(t: TestApp, cookie: string, start: string, end: string): Promise<Summary> {
  const res = await getAs(t, cookie, `/api/tracking/summary?startDate=${start}&endDate=${end}`);
  assert.equal(res.status, 200);
  return await res.json();
}

// [start, end, unique visitors, its previous period's, clicks, leads]
const EXPECTED: [string, string, number, number, number, number][] = [
  // Last 30 days: 13 addresses (every one but G); the previous 30 days (5/9..4/10): C, G, H, J.
  ["2026-10-05", "2026-11-03", 13, 4, 4, 2],
  // Last 7 days at the start of a month: A, B, D, E, F, I, J, K, M, N; before them (21/10..27/10): N.
  ["2026-10-28", "2026-11-03", 10, 1, 3, 1],
  // This month so far: A, B, D, E, I, J, K, N; compared with 1 to 3 October until 12:00: G.
  ["2026-11-01", "2026-11-30", 8, 1, 2, 1],
  // A custom 50 days over three months: all 14; its previous 50 days (27/7..14/9): G.
  ["2026-09-15", "2026-11-03", 14, 1, 4, 2],
  // Two days either side of the month's end: B, E, K, M; the two days before: F, M.
  ["2026-10-31", "2026-11-01", 4, 2, 1, 0],
];

appTest(
  "unique visitors: exact across a month's end for the last 30 and 7 days, the funnel and the previous period",
  async (t) => {
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    await seed(t);
    const check = async (when: string) => {
      for (const [start, end, unique, previous, clicks, leads] of EXPECTED) {
        const s = await summary(t, cookie, start, end);
        const what = `${when} ${start}..${end}`;
        assert.equal(s.current.uniqueVisitors, unique, what);
        assert.equal(s.previous.uniqueVisitors, previous, what + " previous");
        assert.equal(s.current.clicks, clicks, what + " clicks");
        assert.equal(s.current.leads, leads, what + " leads");
        assert.equal(s.current.approximate, false, what);
      }
    };
    await check("raw only:");
    // As the server's job would have run: mid-October, on both sides of midnight, then now.
    for (
      const at of ["2026-10-15T12:00:00", "2026-10-31T23:45:00", "2026-11-01T00:40:00", "2026-11-03T12:00:00"]
    ) {
      await runRollups(t.db, TZ, sp(at));
    }
    await check("rolled up:");
    // Longer than 62 days: an upper bound (G, C, H, I, J counted once per 62-day stretch), and said so.
    const long = await summary(t, cookie, "2026-08-01", "2026-11-03");
    assert.equal(long.current.approximate, true);
    assert.ok(long.current.uniqueVisitors >= 14, String(long.current.uniqueVisitors));
  },
  { now: () => NOW },
);
