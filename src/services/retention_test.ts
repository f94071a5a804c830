import assert from "node:assert/strict";
import type { Db, Queryable } from "../db/client.ts";
import { ANALYTICS_LOCK } from "../db/job_locks.ts";
import {
  allTimeClicksAndConversions,
  conversionBySource,
  dailyClicks,
  dailyUniqueVisitors,
  eventTotals,
} from "../db/dashboard_queries.ts";
import { visitorTotals } from "../db/unique_visitors.ts";
import { topRanked } from "../db/rankings.ts";
import { dbTest } from "../../testing/db.ts";
import { insertClick, insertConversion, insertVisit, sp } from "../../testing/analytics_fixture.ts";
import { runJobOnce, startJobs } from "./jobs.ts";
import { type RawEventsReport, retentionJobs } from "./retention.ts";

const TZ = "America/Sao_Paulo";
const NOW = new Date("2026-11-22T12:00:00Z");
// 400 local days before 2026-11-22 is 2025-10-18: everything before its São Paulo midnight goes.
const OPTIONS = { retentionDays: 400, timeZone: TZ, now: NOW };

/** Each retention job once, in the timer's order, and what they did together. */
async function runRetention(db: Db, { now, ...options }: typeof OPTIONS) {
  const outcomes = [];
  for (const job of retentionJobs(db, options)) outcomes.push(await runJobOnce(job, now));
  const [raw, sessions, counters, salts] = outcomes;
  const done = <T>(outcome: typeof raw) => outcome.status === "done" ? outcome.result as T : undefined;
  const rawReport = done<RawEventsReport>(raw);
  return {
    /** The raw-event purge found the analytics lock taken. */
    skipped: raw.status === "locked",
    boundary: rawReport?.boundary,
    rolledUp: rawReport?.rolledUp,
    purged: {
      ...rawReport?.purged,
      sessions: done<number>(sessions),
      ...done<Record<string, number>>(counters),
      salts: done<number>(salts),
    },
  };
}
const TABLES = [
  "visits",
  "clicks",
  "conversions",
  "sessions",
  "rate_limits",
  "login_failures",
  "visitor_salts",
];

async function counts(db: Queryable): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    out[table] = (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;
  }
  return out;
}

async function rollUps(db: Queryable) {
  const day = "to_char(day, 'YYYY-MM-DD') as day";
  return {
    totals: await db.query(
      `select ${day}, visits, unique_visitors, clicks, conversions from daily_totals order by 1`,
    ),
    ranks: await db.query(`select ${day}, dimension, key, visits from daily_visit_ranks order by 1, 2, 3`),
    sources: await db.query(
      `select ${day}, utm_source, clicks, conversions from daily_source_actions order by 1, 2`,
    ),
  };
}

/** Two purgeable days (one of them ends at 23:30 local, already the next day in UTC) and kept data. */
async function seed(db: Queryable): Promise<void> {
  const google = { utmSource: "google", utmCampaign: "black-friday" };
  await insertVisit(db, sp("2025-10-16T09:00:00"), "v1", "/pt-br", google);
  await insertVisit(db, sp("2025-10-16T10:00:00"), "v1", "/pt-br/pipefy", { utmSource: "google" });
  await insertVisit(db, sp("2025-10-16T11:00:00"), "v2", "/pt-br");
  await insertClick(db, sp("2025-10-16T09:05:00"), google);
  await insertClick(db, sp("2025-10-16T11:05:00"));
  await insertConversion(db, sp("2025-10-16T09:07:00"), google);
  await insertVisit(db, sp("2025-10-17T23:30:00"), "v3", "/en", { utmSource: "facebook" });
  await insertClick(db, sp("2025-10-17T23:31:00"), { utmSource: "facebook" });
  // Kept: the first minutes of the boundary day, and recent traffic.
  await insertVisit(db, sp("2025-10-18T00:30:00"), "v4", "/pt-br");
  await insertClick(db, sp("2025-10-18T00:31:00"));
  await insertConversion(db, sp("2025-10-18T00:32:00"));
  await insertVisit(db, sp("2026-11-20T15:00:00"), "v5", "/pt-br");
  await insertVisit(db, sp("2026-11-21T15:00:00"), "v5", "/pt-br");

  const [admin] = await db.query<{ id: number }>(
    "insert into admins (email, password_hash) values ('admin@example.com', 'x') returning id",
  );
  await db.query("insert into sessions (id, admin_id, expires_at) values ('old', $1, $2), ('live', $1, $3)", [
    admin.id,
    new Date("2026-11-21T00:00:00Z"),
    new Date("2026-12-10T00:00:00Z"),
  ]);
  await db.query("insert into rate_limits (bucket, window_start, hits) values ('a', $1, 3), ('b', $2, 1)", [
    new Date("2026-11-20T10:00:00Z"),
    new Date("2026-11-22T11:59:00Z"),
  ]);
  await db.query(
    "insert into login_failures (client_key, account, occurred_at) values ('c', 'x', $1), ('c', 'x', $2)",
    [new Date("2026-11-20T10:00:00Z"), new Date("2026-11-22T11:50:00Z")],
  );
  for (const month of ["2026-08", "2026-09", "2026-10", "2026-11"]) {
    await db.query("insert into visitor_salts (month, salt) values ($1, $2)", [month, new Uint8Array(32)]);
  }
}

/** What the seed leaves in each table once retention has run (at NOW, with OPTIONS). */
const AFTER_RETENTION = {
  visits: 3,
  clicks: 1,
  conversions: 1,
  sessions: 1,
  rate_limits: 1,
  login_failures: 1,
  visitor_salts: 2,
};

dbTest(
  "retention: rolls up the days it purges, then purges raw events, sessions, counters and salts",
  async (db) => {
    await seed(db);
    assert.deepEqual(await counts(db), {
      visits: 7,
      clicks: 4,
      conversions: 2,
      sessions: 2,
      rate_limits: 2,
      login_failures: 2,
      visitor_salts: 4,
    });

    const report = await runRetention(db, OPTIONS);
    assert.equal(report.skipped, false);
    assert.equal(report.boundary, "2025-10-18T03:00:00.000Z");
    // Every day is rolled up (up to two minutes ago), not only the purged ones.
    assert.deepEqual(report.rolledUp, {
      through: "2026-11-22",
      days: 5,
      rankRows: 9,
      sourceRows: 4,
      channelRows: 0,
    });
    assert.deepEqual(report.purged, {
      visits: 4,
      visitorKeys: 3,
      clicks: 3,
      conversions: 1,
      engagements: 0,
      sessions: 1,
      rateLimitWindows: 1,
      loginFailures: 1,
      salts: 2,
    });
    assert.deepEqual(await counts(db), AFTER_RETENTION);
    assert.deepEqual(
      (await db.query<{ month: string }>("select month from visitor_salts order by 1")).map((r) => r.month),
      ["2026-10", "2026-11"],
    );
    assert.deepEqual(
      (await db.query<{ id: string }>("select id from sessions")).map((r) => r.id),
      ["live"],
    );
    assert.deepEqual(await rollUps(db), {
      totals: [
        { day: "2025-10-16", visits: 3, unique_visitors: 2, clicks: 2, conversions: 1 },
        { day: "2025-10-17", visits: 1, unique_visitors: 1, clicks: 1, conversions: 0 },
        { day: "2025-10-18", visits: 1, unique_visitors: 1, clicks: 1, conversions: 1 },
        { day: "2026-11-20", visits: 1, unique_visitors: 1, clicks: 0, conversions: 0 },
        { day: "2026-11-21", visits: 1, unique_visitors: 1, clicks: 0, conversions: 0 },
      ],
      ranks: [
        { day: "2025-10-16", dimension: "page", key: "/pt-br", visits: 2 },
        { day: "2025-10-16", dimension: "page", key: "/pt-br/pipefy", visits: 1 },
        { day: "2025-10-16", dimension: "utm_campaign", key: "black-friday", visits: 1 },
        { day: "2025-10-16", dimension: "utm_source", key: "google", visits: 2 },
        { day: "2025-10-17", dimension: "page", key: "/en", visits: 1 },
        { day: "2025-10-17", dimension: "utm_source", key: "facebook", visits: 1 },
        { day: "2025-10-18", dimension: "page", key: "/pt-br", visits: 1 },
        { day: "2026-11-20", dimension: "page", key: "/pt-br", visits: 1 },
        { day: "2026-11-21", dimension: "page", key: "/pt-br", visits: 1 },
      ],
      sources: [
        { day: "2025-10-16", utm_source: "", clicks: 1, conversions: 0 },
        { day: "2025-10-16", utm_source: "google", clicks: 1, conversions: 1 },
        { day: "2025-10-17", utm_source: "facebook", clicks: 1, conversions: 0 },
        { day: "2025-10-18", utm_source: "", clicks: 1, conversions: 1 },
      ],
    });
    // The purged days' visitor bits are gone with their raw rows; the kept day's key stays.
    assert.deepEqual(
      await db.query(
        "select to_char(month, 'YYYY-MM') as month, visitor_key, days, last_day from visitor_days order by 1, 2",
      ),
      [
        { month: "2025-10", visitor_key: "v4", days: 1 << 17, last_day: 18 },
        { month: "2026-11", visitor_key: "v5", days: (1 << 19) | (1 << 20), last_day: 21 },
      ],
    );
    assert.deepEqual(
      await db.query(
        `select to_char(through, 'YYYY-MM-DD') as through, to_char(purged_through, 'YYYY-MM-DD') as purged
           from rollup_state`,
      ),
      [{ through: "2026-11-22", purged: "2025-10-17" }],
    );
    // The filter roll-ups keep the kept days only: a filtered view counts nothing before the purge watermark.
    for (
      const table of [
        "daily_filter_engagement",
        "daily_filter_visit_ranks",
        "daily_filter_page_engagement",
        "daily_filter_visitors",
        "daily_filter_actions",
      ]
    ) {
      const days = await db.query<{ day: string }>(
        `select distinct to_char(day, 'YYYY-MM-DD') as day from ${table} order by 1`,
      );
      assert.ok(days.every((d) => d.day >= "2025-10-18"), `${table}: ${JSON.stringify(days)}`);
    }
    assert.deepEqual(
      await db.query(
        `select to_char(day, 'YYYY-MM-DD') as day, page_views from daily_filter_engagement
          where dimension = 'page' and key = '/pt-br' order by 1`,
      ),
      [
        { day: "2025-10-18", page_views: 1 },
        { day: "2026-11-20", page_views: 1 },
        { day: "2026-11-21", page_views: 1 },
      ],
    );
  },
);

dbTest("retention: a second run changes nothing and leaves the roll-ups as they were", async (db) => {
  await seed(db);
  await runRetention(db, OPTIONS);
  const before = { counts: await counts(db), rollUps: await rollUps(db) };
  const again = await runRetention(db, OPTIONS);
  assert.deepEqual(again.rolledUp, {
    through: "2026-11-22",
    days: 0,
    rankRows: 0,
    sourceRows: 0,
    channelRows: 0,
  });
  assert.ok(Object.values(again.purged).every((n) => n === 0), JSON.stringify(again.purged));
  assert.deepEqual({ counts: await counts(db), rollUps: await rollUps(db) }, before);
});

dbTest(
  "retention: the next day's run rolls up the day that closed and purges the newly expired one",
  async (db) => {
    await seed(db);
    await runRetention(db, OPTIONS);
    const first = await rollUps(db);
    const next = await runRetention(db, { ...OPTIONS, now: new Date("2026-11-23T12:00:00Z") });
    assert.equal(next.boundary, "2025-10-19T03:00:00.000Z");
    // 2026-11-22 and 2026-11-23 have no events: nothing to add, but the watermark moves.
    assert.deepEqual(next.rolledUp, {
      through: "2026-11-23",
      days: 0,
      rankRows: 0,
      sourceRows: 0,
      channelRows: 0,
    });
    assert.equal(next.purged.visits, 1);
    assert.equal(next.purged.visitorKeys, 1);
    assert.deepEqual(await rollUps(db), first);
  },
);

dbTest("retention: only one instance works while another holds the lock", async (db: Db, kind) => {
  await seed(db);
  if (kind === "pglite") {
    // PGlite has one connection and one process: the lock is always free. Still, the job takes it.
    assert.equal((await runRetention(db, OPTIONS)).skipped, false);
    return;
  }
  let report: Awaited<ReturnType<typeof runRetention>> | undefined;
  await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1, hashtext(current_schema()))", [ANALYTICS_LOCK]);
    report = await runRetention(db, OPTIONS); // another connection of the pool, like another instance
  });
  assert.equal(report?.skipped, true);
  assert.equal((await counts(db)).visits, 7);
  assert.equal((await runRetention(db, OPTIONS)).skipped, false);
  assert.equal((await counts(db)).visits, 3);
});

dbTest("retention: the timer runs the jobs soon after start and stops cleanly", async (db) => {
  await seed(db);
  const job = startJobs(retentionJobs(db, { ...OPTIONS, now: () => NOW, firstDelay: 0, every: 3_600_000 }));
  try {
    for (let i = 0; i < 200 && JSON.stringify(await counts(db)) !== JSON.stringify(AFTER_RETENTION); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await job.stop();
  }
  assert.deepEqual(await counts(db), AFTER_RETENTION);
  assert.equal((await rollUps(db)).totals.length, 5);
});

dbTest(
  "retention: the dashboard's numbers are the same before and after raw events are purged",
  async (db) => {
    await seed(db);
    const range = { start: "2025-10-01", end: "2026-11-22" };
    const purgedOnly = { start: "2025-10-16", end: "2025-10-17" };
    const snapshot = async () => ({
      clicks: await dailyClicks(db, range, TZ),
      uniques: await dailyUniqueVisitors(db, range, TZ),
      visitors: await visitorTotals(db, range, TZ),
      events: await eventTotals(db, range, TZ),
      purgedVisitors: await visitorTotals(db, purgedOnly, TZ),
      purgedEvents: await eventTotals(db, purgedOnly, TZ),
      allTime: await allTimeClicksAndConversions(db, TZ),
      sources: await topRanked(db, "utm_source", range, TZ, 10),
      campaigns: await topRanked(db, "utm_campaign", range, TZ, 10),
      pages: await topRanked(db, "page", range, TZ, 10),
      bySource: await conversionBySource(db, range, TZ),
    });
    const before = await snapshot();
    assert.deepEqual(before.visitors, { uniqueVisitors: 5, visits: 7, approximate: false });
    // Conversions are the stored leads (none on those days; leads are never purged), not the reports.
    assert.deepEqual(before.purgedEvents, { clicks: 3, conversions: 0, leads: 0 });
    assert.deepEqual(before.pages, [{ key: "/pt-br", visits: 5 }, { key: "/en", visits: 1 }, {
      key: "/pt-br/pipefy",
      visits: 1,
    }]);
    const report = await runRetention(db, OPTIONS);
    assert.equal(report.purged.visits, 4);
    const after = await snapshot();
    // Same figures, but a total over purged days (sums of daily uniques) is now labelled an upper bound.
    assert.equal(after.visitors.approximate, true);
    assert.equal(after.purgedVisitors.approximate, true);
    assert.deepEqual({
      ...after,
      visitors: { ...after.visitors, approximate: false },
      purgedVisitors: { ...after.purgedVisitors, approximate: false },
    }, before);
  },
);
