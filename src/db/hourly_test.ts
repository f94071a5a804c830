// The hourly chart's roll-up (db/hourly.ts, migrations/00031): whatever the watermark, the hours read from
// hourly_totals and the raw rows are the hours read from the raw rows alone.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import {
  insertClick,
  insertLead,
  insertVisit,
  insertWhatsappClick,
  sp,
} from "../../testing/analytics_fixture.ts";
import { runRollups } from "../services/rollups.ts";
import { purgeRawEvents } from "../services/retention.ts";
import type { Db } from "./client.ts";
import { BEFORE_CUT, hourlyCounts } from "./hourly.ts";

const TZ = "America/Sao_Paulo";

/**
 * 10 November 2026 in São Paulo, every hour busy: visitors coming back within and across hours, plan and
 * WhatsApp clicks, leads, and events on each side of both midnights.
 */
async function seedDay(db: Db): Promise<void> {
  for (let minute = 0; minute < 24 * 60; minute += 7) {
    const at = new Date(sp("2026-11-10T00:00:00").getTime() + minute * 60_000 + 13_000);
    await insertVisit(db, at, `v${minute % 11}`, "/pt-br");
    if (minute % 3 === 0) await insertClick(db, at);
    if (minute % 5 === 0) await insertWhatsappClick(db, at, "/pt-br");
    if (minute % 29 === 0) {
      await insertLead(db, at, { name: "Ana", email: `l${minute}@example.com`, whatsapp: "+5511999990000" });
    }
  }
  await insertVisit(db, sp("2026-11-09T23:59:59"), "late", "/pt-br");
  await insertVisit(db, sp("2026-11-11T00:00:00"), "early", "/pt-br");
  await insertClick(db, sp("2026-11-11T00:00:01"));
}

const hoursRolled = async (db: Db) =>
  (await db.query<{ n: number }>("select count(*)::int as n from hourly_totals"))[0].n;

dbTest(
  "hourly: the roll-up and the raw rows give the raw rows' hours, wherever the watermark falls",
  async (db) => {
    await seedDay(db);
    const raw = await hourlyCounts(db, "2026-11-10", TZ);
    assert.equal(raw.length, 24);
    assert.ok(raw.every((h) => h.visits > 0 && h.clicks > 0), "every hour is busy");
    // The job rolls up to two minutes before it runs: watermarks inside an hour, on its last second, on the hour.
    const runs: [string, number][] = [
      ["2026-11-10T00:02:00", 0],
      ["2026-11-10T09:47:30", 9],
      ["2026-11-10T10:01:59", 9],
      ["2026-11-10T10:02:00", 10],
      ["2026-11-10T17:31:00", 17],
      ["2026-11-11T00:05:00", 24],
    ];
    for (const [now, whole] of runs) {
      assert.ok(await runRollups(db, TZ, sp(now)));
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from hourly_totals where hour >= $1 and hour < $2",
        [sp("2026-11-10T00:00:00"), sp("2026-11-11T00:00:00")],
      );
      assert.equal(n, whole, `whole hours rolled up at ${now}`);
      assert.deepEqual(await hourlyCounts(db, "2026-11-10", TZ), raw, `at ${now}`);
    }
    // The 9th (its last second has a visit) and the 10th; the 11th's first hour is still under way.
    assert.equal(await hoursRolled(db), 48);
  },
);

dbTest(
  "hourly: a rolled-up hour is read from its row, and a row is written for an hour with no event",
  async (db) => {
    await insertVisit(db, sp("2026-11-10T09:10:00"), "v1", "/pt-br");
    assert.ok(await runRollups(db, TZ, sp("2026-11-10T12:30:00")));
    const rows = await db.query<{ hour: Date; visitors: number }>(
      "select hour, visitors from hourly_totals order by hour",
    );
    // Every hour from the first raw day's midnight to 12:00 (the watermark is 12:28).
    assert.equal(rows.length, 12);
    assert.deepEqual(rows.map((r) => r.visitors), [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    // What the chart shows for 09:00 is the row's figure (spoiled here), not a count of the raw rows.
    await db.query("update hourly_totals set visitors = 7 where hour = $1", [sp("2026-11-10T09:00:00")]);
    const hours = await hourlyCounts(db, "2026-11-10", TZ);
    assert.equal(hours[9].visits, 7);
    // The hour under way (12:00) and those after come from the raw rows.
    await insertVisit(db, sp("2026-11-10T12:40:00"), "v2", "/pt-br");
    assert.equal((await hourlyCounts(db, "2026-11-10", TZ))[12].visits, 1);
  },
);

dbTest(
  "hourly: a day when the clocks go back rolls up its 25 hours, each event in exactly one",
  async (db) => {
    const tz = "America/New_York";
    // New York leaves daylight saving on 1 November 2026 at 02:00 EDT (06:00 UTC): 01:00 comes twice.
    for (
      const iso of [
        "2026-11-01T04:10:00Z",
        "2026-11-01T05:30:00Z",
        "2026-11-01T06:30:00Z",
        "2026-11-02T04:59:00Z",
      ]
    ) {
      await insertVisit(db, new Date(iso), iso, "/en");
      await insertWhatsappClick(db, new Date(iso), "/en");
    }
    const raw = await hourlyCounts(db, "2026-11-01", tz);
    assert.equal(raw.length, 25);
    assert.ok(await runRollups(db, tz, new Date("2026-11-02T06:00:00Z")));
    assert.equal(
      (await db.query<{ n: number }>("select count(*)::int as n from hourly_totals where hour < $1", [
        new Date("2026-11-02T05:00:00Z"),
      ]))[0].n,
      25,
    );
    assert.deepEqual(await hourlyCounts(db, "2026-11-01", tz), raw);
    assert.deepEqual(raw.map((h) => h.visits).filter((n) => n), [1, 1, 1, 1]);
  },
);

dbTest("hourly: retention forgets the hours of the days it purges", async (db) => {
  await insertVisit(db, sp("2026-11-10T09:10:00"), "v1", "/pt-br");
  await insertVisit(db, sp("2026-11-12T09:10:00"), "v2", "/pt-br");
  assert.ok(await runRollups(db, TZ, sp("2026-11-13T00:30:00")));
  assert.equal(await hoursRolled(db), 72);
  // Keeping 2 days on the 13th purges the raw rows before the 11th.
  await purgeRawEvents(db, { retentionDays: 2, timeZone: TZ }, sp("2026-11-13T00:30:00"));
  const [{ first }] = await db.query<{ first: Date }>("select min(hour) as first from hourly_totals");
  assert.equal(new Date(first).getTime(), sp("2026-11-11T00:00:00").getTime());
});

dbTest(
  "hourly: a day's page views and visible time before a cut: whole hours rolled up, the cut's hour raw",
  async (db) => {
    await seedDay(db);
    for (let minute = 3; minute < 24 * 60; minute += 17) {
      const at = new Date(sp("2026-11-10T00:00:00").getTime() + minute * 60_000);
      await db.query(
        "insert into engagements (occurred_at, session_id, source, engaged_ms) values ($1, 's', '/pt-br', $2)",
        [
          at,
          1_000 + minute,
        ],
      );
    }
    const beforeCut = async (cut: string) =>
      (await db.query<{ views: number; ms: number }>(
        `select views::int, ms::float8 from ${
          BEFORE_CUT("$1::date", "($1::date + $3::time)::timestamp at time zone $2", "$2")
        }`,
        ["2026-11-10", TZ, cut],
      ))[0];
    const fromRaw = async (cut: string) =>
      (await db.query<{ views: number; ms: number }>(
        `select (select count(*) from visits where occurred_at >= $1 and occurred_at < $2)::int as views,
              (select coalesce(sum(engaged_ms), 0) from engagements where occurred_at >= $1 and occurred_at < $2)::float8 as ms`,
        [sp("2026-11-10T00:00:00"), sp(`2026-11-10T${cut}`)],
      ))[0];
    const cuts = ["00:00:01", "00:59:59", "01:00:00", "09:30:00", "10:30:00", "23:59:59"];
    for (const cut of cuts) {
      assert.deepEqual(
        await beforeCut(cut),
        await fromRaw(cut),
        `before any roll-up, ${cut}`,
      );
    }
    assert.ok(await runRollups(db, TZ, sp("2026-11-11T00:05:00")));
    for (const cut of cuts) assert.deepEqual(await beforeCut(cut), await fromRaw(cut), cut);
    // The whole hours are read from their rows (a spoiled 09:00 shows from 10:00 on), the cut's hour from the raw rows.
    await db.query("update hourly_totals set page_views = page_views + 5 where hour = $1", [
      sp("2026-11-10T09:00:00"),
    ]);
    assert.equal((await beforeCut("10:30:00")).views, (await fromRaw("10:30:00")).views + 5);
    assert.equal((await beforeCut("09:30:00")).views, (await fromRaw("09:30:00")).views);
    // A whole hour without figures (rolled up before migration 00035): the day is read from the raw rows.
    await db.query("update hourly_totals set page_views = null where hour = $1", [sp("2026-11-10T03:00:00")]);
    assert.deepEqual(await beforeCut("10:30:00"), await fromRaw("10:30:00"));
  },
);
