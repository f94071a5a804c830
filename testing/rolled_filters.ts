// For the tests that compare a roll-up per filter value with the raw rows (src/db/filter_*_test.ts): a clock
// whose day is still open, the most viewed values of each rolled-up filter in a seeded database, and the check
// that a roll-up's first run after its migration fills the days rolled up before it.
import assert from "node:assert/strict";
import type { Db, Queryable } from "../src/db/client.ts";
import type { BackfillFlag } from "../src/db/rollups.ts";
import { runRollups } from "../src/services/rollups.ts";
import { ROLLED_FILTERS } from "../src/db/filter_engagement.ts";
import type { FilterKey, Filters } from "../src/shared/filters.ts";
import type { SeedOptions } from "./seed.ts";

export const TZ = "America/Sao_Paulo";
/** 15:00 local on 2 December 2026: today is open (raw rows after the watermark's midnight). */
export const NOW = new Date("2026-12-02T18:00:00Z");

/**
 * The data set the roll-up-per-filter tests compare on (4,000 visits over 45 days, the last one open), seeded
 * once per run on PGlite and copied per test (testing/seeded.ts seededTest).
 */
export const SEEDED: SeedOptions = { visits: 4000, days: 45, timeZone: TZ, now: NOW, seed: 7 };

/** One filter for each of the `n` most viewed values of every rolled-up filter (fails on a dimension with none). */
export async function busiestFilters(db: Queryable, n: number): Promise<Filters[]> {
  const out: Filters[] = [];
  for (const [key, column] of Object.entries(ROLLED_FILTERS) as [FilterKey, string][]) {
    const values = await db.query<{ v: string }>(
      `select ${column} as v from visits where ${column} is not null and ${column} <> ''
        group by 1 order by count(*) desc, 1 limit $1`,
      [n],
    );
    if (values.length === 0) throw new Error(`no value for the ${key} filter in the seeded data`);
    out.push(...values.map(({ v }) => ({ [key]: v })));
  }
  return out;
}

/** Pairs of filters the tests combine: every paired key of db/filter_dimensions.ts at least once. */
export const PAIRS: [FilterKey, FilterKey][] = [
  ["channel", "utm_source"],
  ["utm_source", "utm_campaign"],
  ["channel", "utm_medium"],
  ["source", "utm_content"],
  ["utm_medium", "utm_term"],
];

/** Two filters for each of PAIRS: its busiest combination of values (fails on a pair with none). */
export async function busiestPairs(db: Queryable): Promise<Filters[]> {
  const out: Filters[] = [];
  for (const [a, b] of PAIRS) {
    const [ca, cb] = [ROLLED_FILTERS[a]!, ROLLED_FILTERS[b]!];
    const rows = await db.query<{ a: string; b: string }>(
      `select ${ca} as a, ${cb} as b from visits where ${ca} <> '' and ${cb} <> ''
        group by 1, 2 order by count(*) desc, 1, 2 limit 1`,
    );
    if (rows.length === 0) throw new Error(`no page view with both ${a} and ${b} in the seeded data`);
    out.push({ [a]: rows[0].a, [b]: rows[0].b });
  }
  return out;
}

/**
 * As the roll-up's migration leaves a database whose days were rolled up before it (`table` empty, `flag`
 * set), `read` answers null (its caller reads the raw rows); the next run (the watermark moves) writes the
 * table and `read` gives `expected` again.
 */
export async function assertBackfillRefills<T>(
  db: Db,
  table: string,
  flag: BackfillFlag,
  read: () => Promise<T | null>,
  expected: T,
): Promise<void> {
  await db.query(`delete from ${table}`);
  await db.query(`insert into ${flag} default values`);
  assert.equal(await read(), null);
  await runRollups(db, TZ, new Date(NOW.getTime() + 10 * 60_000));
  assert.ok((await db.query(`select 1 from ${table}`)).length > 0);
  assert.deepEqual(await read(), expected);
}
