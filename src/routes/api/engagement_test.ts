import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { insertVisit, sp } from "../../../testing/analytics_fixture.ts";
import { runRollups } from "../../services/rollups.ts";
import { engagementSummary, liveAnswer, pageTimeRanking } from "../../shared/engagement.ts";
import { MAX_ENGAGED_MS } from "../../shared/schemas.ts";

// The clock the app stamps events with; each test moves it.
let clock = sp("2026-11-20T10:00:00");
const options = { now: () => clock };
const PERIOD = "startDate=2026-11-20&endDate=2026-11-21";

async function at(local: string, fn: () => Promise<Response>): Promise<void> {
  clock = sp(local);
  const res = await fn();
  assert.equal(res.status, 202, await res.text());
}

const view = (t: TestApp, sessionId: string, source: string) =>
  t.postJson("/api/tracking/visit", {
    source,
    sessionId,
    utmSource: null,
    utmCampaign: null,
    utmMedium: null,
  });
const engaged = (t: TestApp, sessionId: string, source: string, engagedMs: number) =>
  t.postJson("/api/tracking/engagement", { source, sessionId, engagedMs });

/**
 * Four visits on 20 and 21 November 2026 (São Paulo), through the public API:
 * A: /pt-br then /pt-br/clientes (30 s and 45 s visible): two page views, no bounce;
 * B: /pt-br alone, 10 s: a bounce; C: /pt-br and a plan click, 20 s: no bounce;
 * D (the 21st): /pt-br/clientes alone, 7 s: a bounce.
 * 4 visits, 5 page views, 2 bounces (50%), 1.25 → 1.3 pages per visit, 112 s ÷ 4 = 28 s per visit;
 * /pt-br 3 views and 60 s (20 s per view), /pt-br/clientes 2 views and 52 s (26 s).
 */
async function seedVisits(t: TestApp) {
  await at("2026-11-20T10:00:00", () => view(t, "s-a", "/pt-br"));
  await at("2026-11-20T10:02:00", () => engaged(t, "s-a", "/pt-br", 30_000));
  await at("2026-11-20T10:02:01", () => view(t, "s-a", "/pt-br/clientes"));
  await at("2026-11-20T10:03:00", () => engaged(t, "s-a", "/pt-br/clientes", 45_000));
  await at("2026-11-20T11:00:00", () => view(t, "s-b", "/pt-br/"));
  await at("2026-11-20T11:00:10", () => engaged(t, "s-b", "/pt-br/", 10_000));
  await at("2026-11-20T12:00:00", () => view(t, "s-c", "/pt-br?gclid=abc"));
  await at("2026-11-20T12:00:05", () =>
    t.postJson("/api/tracking/click", {
      source: "pricing_pro_plan",
      sessionId: "s-c",
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
    }));
  await at("2026-11-20T12:00:20", () => engaged(t, "s-c", "/pt-br", 20_000));
  await at("2026-11-21T09:00:00", () => view(t, "s-d", "/pt-br/clientes"));
  await at("2026-11-21T09:00:07", () => engaged(t, "s-d", "/pt-br/clientes", 7_000));
}

const EXPECTED = {
  start: "2026-11-20",
  end: "2026-11-21",
  sessions: 4,
  pageViews: 5,
  bounces: 2,
  engagedMs: 112_000,
  pagesPerVisit: 1.3,
  bounceRate: 50,
  visitSeconds: 28,
};
const EXPECTED_PAGES = [
  { page: "/pt-br", views: 3, engagedMs: 60_000, averageSeconds: 20 },
  { page: "/pt-br/clientes", views: 2, engagedMs: 52_000, averageSeconds: 26 },
];

async function read(t: TestApp, cookie: string) {
  const summary = await getAs(t, cookie, `/api/tracking/engagement?${PERIOD}`);
  assert.equal(summary.status, 200);
  const pages = await getAs(t, cookie, `/api/tracking/rankings/page-time?${PERIOD}`);
  assert.equal(pages.status, 200);
  return {
    summary: engagementSummary.parse(await summary.json()),
    pages: pageTimeRanking.parse(await pages.json()),
  };
}

appTest("engagement: visits, bounces, pages per visit and durations, exact from raw rows", async (t) => {
  await seedAdmin(t.db);
  await seedVisits(t);
  const cookie = await signIn(t);
  clock = sp("2026-11-26T09:00:00");
  const { summary, pages } = await read(t, cookie);
  assert.deepEqual(summary.current, EXPECTED);
  // Over, so compared with the two days before it, which had nothing.
  assert.deepEqual(summary.previous, {
    start: "2026-11-18",
    end: "2026-11-19",
    until: null,
    sessions: 0,
    pageViews: 0,
    bounces: 0,
    engagedMs: 0,
    pagesPerVisit: 0,
    bounceRate: 0,
    visitSeconds: 0,
  });
  assert.deepEqual(pages, EXPECTED_PAGES);
}, options);

appTest("engagement: the same figures rolled up, and split by a watermark inside a visit", async (t) => {
  await seedAdmin(t.db);
  // The watermark falls inside D's visit: its page view (09:00:00) rolled up, its beacon (09:00:07) not yet.
  // (The job rolls up to two minutes before it runs, services/rollups.ts ROLLUP_GRACE_MS.)
  await seedVisits(t);
  assert.ok(await runRollups(t.db, "America/Sao_Paulo", sp("2026-11-21T09:02:03")));
  const [{ until }] = await t.db.query<{ until: Date }>("select until from rollup_state");
  assert.equal(new Date(until).getTime(), sp("2026-11-21T09:00:03").getTime());
  const cookie = await signIn(t);
  clock = sp("2026-11-21T09:10:00");
  assert.deepEqual((await read(t, cookie)).summary.current, EXPECTED);
  assert.deepEqual((await read(t, cookie)).pages, EXPECTED_PAGES);
  // D's second page view after the watermark: still one visit (no longer a bounce).
  await at("2026-11-21T09:11:00", () => view(t, "s-d", "/pt-br"));
  const split = (await read(t, cookie)).summary.current;
  assert.equal(split.sessions, 4);
  assert.equal(split.bounces, 1);
  assert.equal(split.pageViews, 6);
  // Everything rolled up: the same.
  assert.ok(await runRollups(t.db, "America/Sao_Paulo", sp("2026-11-22T00:30:00")));
  clock = sp("2026-11-26T09:00:00");
  const rolled = (await read(t, cookie)).summary.current;
  assert.deepEqual({ ...rolled }, { ...split });
  const [{ n }] = await t.db.query<{ n: number }>("select count(*)::int as n from daily_engagement");
  assert.equal(n, 2);
}, options);

appTest("engagement: a visit running past midnight is a visit on each day", async (t) => {
  await seedAdmin(t.db);
  await at("2026-11-20T23:59:00", () => view(t, "s-late", "/pt-br"));
  await at("2026-11-21T00:01:00", () => view(t, "s-late", "/pt-br/clientes"));
  const cookie = await signIn(t);
  clock = sp("2026-11-26T09:00:00");
  const { summary } = await read(t, cookie);
  assert.equal(summary.current.sessions, 2);
  assert.equal(summary.current.bounces, 2);
}, options);

appTest(
  "engagement: bad beacons answer 400 naming the field; other origins 403; bots are not stored",
  async (t) => {
    const good = { source: "/pt-br", sessionId: "s-1", engagedMs: 1000 };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...good, engagedMs: 0 }, "engagedMs"],
      [{ ...good, engagedMs: -5 }, "engagedMs"],
      [{ ...good, engagedMs: 1.5 }, "engagedMs"],
      [{ ...good, engagedMs: MAX_ENGAGED_MS + 1 }, "engagedMs"],
      [{ ...good, engagedMs: "1000" }, "engagedMs"],
      [{ source: "/pt-br", engagedMs: 1000 }, "sessionId"],
      [{ ...good, sessionId: "a b" }, "sessionId"],
      [{ ...good, source: "https://evil.example/" }, "source"],
      [{ ...good, visitorKey: "x" }, "visitorKey"],
    ];
    for (const [body, field] of bad) {
      const res = await t.postJson("/api/tracking/engagement", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const answer = await res.json();
      assert.equal(answer.error, "validation");
      assert.ok(JSON.stringify(answer.fields).includes(field), JSON.stringify(answer));
    }
    assert.equal((await t.postJson("/api/tracking/engagement", "{")).status, 400);
    assert.equal(
      (await t.postJson("/api/tracking/engagement", good, { origin: "https://evil.example" })).status,
      403,
    );
    assert.equal(
      (await t.postJson("/api/tracking/engagement", good, { "user-agent": "Googlebot/2.1" })).status,
      202,
    );
    const [{ n }] = await t.db.query<{ n: number }>("select count(*)::int as n from engagements");
    assert.equal(n, 0);
    // sendBeacon's text/plain body is accepted, and stored under the page key with no visitor data.
    const beacon = await t.request("/api/tracking/engagement", {
      method: "POST",
      body: JSON.stringify({ ...good, source: "/pt-br/?fbclid=x" }),
      headers: { "content-type": "text/plain;charset=UTF-8", origin: "http://localhost:8000" },
    });
    assert.equal(beacon.status, 202);
    const rows = await t.db.query("select session_id, source, engaged_ms from engagements");
    assert.deepEqual(rows, [{ session_id: "s-1", source: "/pt-br", engaged_ms: 1000 }]);
  },
  options,
);

appTest("agora: visitors of the last 5 minutes, each on the page of their latest view", async (t) => {
  await seedAdmin(t.db);
  const now = sp("2026-11-20T15:00:00");
  await insertVisit(t.db, sp("2026-11-20T14:54:59"), "old", "/pt-br/termos-de-uso");
  await insertVisit(t.db, sp("2026-11-20T14:56:00"), "k1", "/pt-br");
  await insertVisit(t.db, sp("2026-11-20T14:58:00"), "k1", "/pt-br/clientes");
  await insertVisit(t.db, sp("2026-11-20T14:57:00"), "k2", "/pt-br/clientes");
  await insertVisit(t.db, sp("2026-11-20T14:59:30"), "k3", "/pt-br");
  const cookie = await signIn(t);
  clock = now;
  const res = await getAs(t, cookie, "/api/tracking/live");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(liveAnswer.parse(await res.json()), {
    since: sp("2026-11-20T14:55:00").toISOString(),
    visitors: 3,
    pages: [{ page: "/pt-br/clientes", visitors: 2 }, { page: "/pt-br", visitors: 1 }],
  });
  clock = sp("2026-11-20T16:00:00");
  const later = liveAnswer.parse(await (await getAs(t, cookie, "/api/tracking/live")).json());
  assert.deepEqual([later.visitors, later.pages], [0, []]);
  assert.equal((await t.request("/api/tracking/live")).status, 401);
}, options);
