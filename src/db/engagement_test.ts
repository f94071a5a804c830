// Visits and bounces split at the watermark (db/engagement.ts, migrations/00032) and up to a cut (00034): wherever
// the roll-up job's
// watermark falls, with sessions running across it, clicks on either side of it, sessions that only click and
// page views without a session, every period's figures are those counted from the raw rows alone.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { sp } from "../../testing/analytics_fixture.ts";
import { runRollups } from "../services/rollups.ts";
import type { Db } from "./client.ts";
import { type EngagementTotals, engagementTotals } from "./engagement.ts";

const TZ = "America/Sao_Paulo";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 20 and 21 November 2026 in São Paulo: 300 sessions of one to four page views (some running past midnight),
 * a third of them with a plan or WhatsApp click (before, between or after their views), 20 that only click,
 * page views without a session id, and a beacon of visible time per page view.
 */
async function seedDays(db: Db): Promise<void> {
  const next = random(31);
  const dayStart = sp("2026-11-20T00:00:00").getTime();
  const visits: [Date, string][] = [];
  const clicks: [Date, string][] = [];
  for (let s = 0; s < 300; s++) {
    let at = dayStart + Math.floor(next() * 2 * 86_400_000);
    const views = 1 + Math.floor(next() * 4);
    const clickAfter = next() < 0.33 ? Math.floor(next() * (views + 1)) : -1;
    for (let v = 0; v < views; v++) {
      if (v === clickAfter) clicks.push([new Date(at - 1_000), `s${s}`]);
      visits.push([new Date(at), `s${s}`]);
      at += Math.floor(next() * 40 * 60_000);
    }
    if (clickAfter === views) clicks.push([new Date(at), `s${s}`]);
  }
  for (let s = 0; s < 20; s++) {
    clicks.push([new Date(dayStart + Math.floor(next() * 2 * 86_400_000)), `c${s}`]);
  }
  for (let s = 0; s < 15; s++) visits.push([new Date(dayStart + Math.floor(next() * 2 * 86_400_000)), ""]);
  // A click half a second before a cut (15:30:00 on the 20th) and the session's first page view half a second after.
  clicks.push([new Date(sp("2026-11-20T15:29:59").getTime() + 500), "edge"]);
  visits.push([new Date(sp("2026-11-20T15:30:00").getTime() + 500), "edge"]);
  for (const [at, session] of visits) {
    await db.query(
      "insert into visits (occurred_at, visitor_key, source, session_id) values ($1, $2, '/pt-br', $3)",
      [at, `k-${session || at.getTime()}`, session],
    );
    if (session) {
      await db.query(
        "insert into engagements (occurred_at, session_id, source, engaged_ms) values ($1, $2, '/pt-br', $3)",
        [new Date(at.getTime() + 5_000), session, 1_000 + Math.floor(next() * 60_000)],
      );
    }
  }
  for (const [at, session] of clicks) {
    await db.query(
      "insert into clicks (occurred_at, visitor_key, source, session_id, kind) values ($1, 'k', 'pricing_pro_plan', $2, $3)",
      [at, session, next() < 0.5 ? "plan" : "whatsapp"],
    );
  }
}

/** The figures of [start, end] (end's day only before `cut`, a local time) counted from the raw rows alone. */
async function fromRawRows(
  db: Db,
  start: string,
  end: string,
  cut: string | null,
): Promise<EngagementTotals> {
  const range = `occurred_at >= ($1::date::timestamp at time zone $3)
    and occurred_at < coalesce(($2::date + $4::time)::timestamp at time zone $3, ($2::date + 1)::timestamp at time zone $3)`;
  const [row] = await db.query<EngagementTotals>(
    `with v as (
       select (occurred_at at time zone $3)::date as day, coalesce(nullif(session_id, ''), 'row:' || id::text) as sid,
              count(*) as n
         from visits where ${range} group by 1, 2),
     c as (select distinct (occurred_at at time zone $3)::date as day, session_id as sid from clicks
            where ${range} and session_id <> '')
     select (select count(*) from v)::int as sessions,
            (select count(*) from v where n = 1 and not exists (select 1 from c where c.day = v.day and c.sid = v.sid))::int
              as bounces,
            (select count(*) from visits where ${range})::int as "pageViews",
            (select coalesce(sum(engaged_ms), 0) from engagements where ${range})::float8 as "engagedMs"`,
    [start, end, TZ, cut],
  );
  return row;
}

dbTest("engagement: visits and bounces with the watermark anywhere are the raw rows' figures", async (db) => {
  await seedDays(db);
  const periods: [string, string, string | null][] = [
    ["2026-11-20", "2026-11-20", null],
    ["2026-11-20", "2026-11-21", null],
    ["2026-11-21", "2026-11-21", null],
    ["2026-11-21", "2026-11-22", null],
    ["2026-11-20", "2026-11-20", "15:30:00"],
    ["2026-11-21", "2026-11-21", "08:00:00"],
    ["2026-11-20", "2026-11-21", "12:00:00"],
    ["2026-11-21", "2026-11-21", "16:38:01"],
  ];
  const truth = await Promise.all(periods.map(([s, e, cut]) => fromRawRows(db, s, e, cut)));
  assert.ok(truth[1].sessions > 300 && truth[1].bounces > 30, JSON.stringify(truth[1]));
  // Before any run, then watermarks on the first day, across midnight, inside the second day and after both.
  const runs = [
    null,
    "2026-11-20T09:17:00",
    "2026-11-20T18:44:30",
    "2026-11-21T00:01:00",
    "2026-11-21T00:03:00",
    "2026-11-21T11:02:07",
    "2026-11-21T16:40:00",
    "2026-11-22T02:00:00",
  ];
  for (const now of runs) {
    if (now) assert.ok(await runRollups(db, TZ, sp(now)));
    for (const [i, [s, e, cut]] of periods.entries()) {
      assert.deepEqual(
        await engagementTotals(db, { start: s, end: e }, TZ, cut),
        truth[i],
        `${s}..${e} cut ${cut}, run ${now}`,
      );
    }
  }
});

dbTest(
  "engagement: the watermark's day is read from its sessions up to the watermark, not from its raw rows",
  async (db) => {
    await seedDays(db);
    assert.ok(await runRollups(db, TZ, sp("2026-11-21T11:02:07")));
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from open_day_sessions where day = '2026-11-21'",
    );
    assert.ok(n > 50, `${n} sessions of the 21st`);
    assert.equal((await db.query("select 1 from open_day_sessions where day <> '2026-11-21'")).length, 0);
    const before = await engagementTotals(db, { start: "2026-11-21", end: "2026-11-21" }, TZ);
    // A spoiled row shows: what the period reads for the day is the roll-up, corrected by the sessions after it.
    await db.query("update daily_engagement set sessions = sessions + 1000 where day = '2026-11-21'");
    const after = await engagementTotals(db, { start: "2026-11-21", end: "2026-11-21" }, TZ);
    assert.equal(after.sessions, before.sessions + 1000);
    // A session of the day seen before the watermark adds no visit when it goes on after it; a new one adds one.
    const [{ sid }] = await db.query<{ sid: string }>(
      "select session as sid from open_day_sessions where day = '2026-11-21' and views = 1 and not clicked limit 1",
    );
    await db.query(
      "insert into visits (occurred_at, visitor_key, source, session_id) values ($1, 'k', '/pt-br', $2), ($1, 'k', '/pt-br', 'new')",
      [sp("2026-11-21T11:30:00"), sid],
    );
    const later = await engagementTotals(db, { start: "2026-11-21", end: "2026-11-21" }, TZ);
    assert.equal(later.sessions, after.sessions + 1);
    // The old bounce went on (one fewer), the new session is one.
    assert.equal(later.bounces, after.bounces);
    assert.equal(later.pageViews, after.pageViews + 2);
  },
);

dbTest(
  "engagement: a day up to a time is read from its session seconds once the watermark has passed it",
  async (db) => {
    await seedDays(db);
    const period = { start: "2026-11-20", end: "2026-11-20" };
    const truth = await fromRawRows(db, "2026-11-20", "2026-11-20", "15:30:00");
    assert.ok(await runRollups(db, TZ, sp("2026-11-21T11:02:07")));
    const [row] = await db.query<{ starts: number[]; settles: number[] }>(
      "select starts, settles from daily_session_seconds where day = '2026-11-20'",
    );
    assert.equal(row.starts.length, (await fromRawRows(db, "2026-11-20", "2026-11-20", null)).sessions);
    assert.deepEqual(row.starts, [...row.starts].sort((a, b) => a - b));
    assert.deepEqual(await engagementTotals(db, period, TZ, "15:30:00"), truth);
    // What answers is the row: a session moved before the cut shows as one more visit, and a bounce.
    await db.query("update daily_session_seconds set starts = array[0] || starts where day = '2026-11-20'");
    const spoiled = await engagementTotals(db, period, TZ, "15:30:00");
    assert.deepEqual([spoiled.sessions, spoiled.bounces], [truth.sessions + 1, truth.bounces + 1]);
  },
);
