// The month rows (db/months.ts, migrations/00038) answer what the day rows answer: the rankings and "Tempo na
// página" over every range between the edges of three months (whole months, parts, across them, the open
// day), after the roll-up job's first run and after a run that closes a day and starts a month; and what
// answers is the months.
import assert from "node:assert/strict";
import { seededTest } from "../../testing/seeded.ts";
import { NOW, SEEDED, TZ } from "../../testing/rolled_filters.ts";
import { runRollups } from "../services/rollups.ts";
import type { Db } from "./client.ts";
import { RAW, ROLLED, SPLIT } from "./dashboard_queries.ts";
import { pageEngagement } from "./engagement.ts";
import { RANKINGS, type RolledRanking, topRanked } from "./rankings.ts";

const DATES = [
  "2026-10-19",
  "2026-10-31",
  "2026-11-01",
  "2026-11-15",
  "2026-11-30",
  "2026-12-01",
  "2026-12-02",
];
const RANGES = DATES.flatMap((start) => DATES.filter((end) => end >= start).map((end) => ({ start, end })));
const CHECKED: RolledRanking[] = ["page", "page_path", "utm_source", "entry_page"];

/** A ranking from the day rows alone (and the raw rows after the watermark). */
async function fromDays(db: Db, ranking: RolledRanking, range: { start: string; end: string }) {
  const { column, rolled } = RANKINGS[ranking];
  return await db.query(
    `with ${SPLIT}
     select key, sum(n)::int as visits from (
       select ${column} as key, count(*) as n from visits, b
        where ${RAW("occurred_at")} and ${column} is not null and ${column} <> '' group by 1
       union all
       select ${rolled.key}, visits from daily_visit_ranks, b where ${ROLLED} and dimension = '${rolled.dimension}'
     ) t group by key order by visits desc, key asc`,
    [range.start, range.end, TZ],
  );
}

/** "Tempo na página" from the day rows alone. */
async function pagesFromDays(db: Db, range: { start: string; end: string }) {
  return await db.query(
    `with ${SPLIT}
     select page, sum(views)::int as views, sum(ms)::float8 as "engagedMs" from (
       select source as page, count(*) as views, 0 as ms from visits, b where ${RAW("occurred_at")} group by 1
       union all
       select source, 0, sum(engaged_ms) from engagements, b where ${RAW("occurred_at")} group by 1
       union all
       select page, views, engaged_ms from daily_page_engagement, b where ${ROLLED}
     ) t group by page having sum(views) > 0 order by views desc, page asc`,
    [range.start, range.end, TZ],
  );
}

async function assertSameAsDays(db: Db, label: string) {
  let rows = 0;
  for (const range of RANGES) {
    const at = `${label}: ${range.start}–${range.end}`;
    for (const ranking of CHECKED) {
      const expected = await fromDays(db, ranking, range);
      assert.deepEqual(await topRanked(db, ranking, range, TZ, null as unknown as number), expected, at);
      rows += expected.length;
    }
    assert.deepEqual(await pageEngagement(db, range, TZ, 100_000), await pagesFromDays(db, range), at);
  }
  assert.ok(rows > 500, `${label}: only ${rows} ranking rows compared`);
}

seededTest(
  "months: the rankings and the time on page from month rows are the day rows' figures",
  SEEDED,
  async (db) => {
    const months = async () =>
      (await db.query<{ month: string }>(
        "select distinct to_char(month, 'YYYY-MM-DD') as month from monthly_visit_ranks order by 1",
      )).map((r) => r.month);
    assert.deepEqual(await months(), ["2026-10-01", "2026-11-01", "2026-12-01"]);
    await assertSameAsDays(db, "after the seed's roll-up");

    // A run the next morning: 2 December closes and its month row is rewritten, with a visit and a beacon more.
    await db.query(
      `insert into visits (occurred_at, visitor_key, session_id, source, entry)
     values ('2026-12-02T20:00:00Z', 'late-key', 'late-session', '/pt-br/clientes', true)`,
    );
    await db.query(
      `insert into engagements (occurred_at, source, engaged_ms) values ('2026-12-02T20:01:00Z', '/pt-br/clientes', 4200)`,
    );
    assert.ok(await runRollups(db, TZ, new Date(NOW.getTime() + 16 * 3_600_000)));
    await assertSameAsDays(db, "after the next morning's run");

    // What answers is the month rows: a spoiled one shows in November's ranking, and in December's up to
    // today (3 December, the roll-up's last day).
    for (
      const range of [{ start: "2026-11-01", end: "2026-11-30" }, { start: "2026-12-01", end: "2026-12-03" }]
    ) {
      const [top] = await topRanked(db, "page", range, TZ, 1);
      await db.query(
        `update monthly_visit_ranks set visits = visits + 1000
          where month = $1::date and dimension = 'page' and key = $2`,
        [range.start, top.key],
      );
      assert.equal((await topRanked(db, "page", range, TZ, 1))[0].visits, top.visits + 1000, range.start);
    }
    // ... and not in a part of November, read from the day rows.
    const part = { start: "2026-11-01", end: "2026-11-15" };
    assert.deepEqual(
      await topRanked(db, "page", part, TZ, 5),
      (await fromDays(db, "page", part)).slice(0, 5),
    );
  },
);
