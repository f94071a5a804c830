// For the tests that compare a roll-up per filter value with the raw rows (src/db/filter_*_test.ts): a clock
// whose day is still open, and the most viewed values of each rolled-up filter in a seeded database.
import type { Queryable } from "../src/db/client.ts";
import { ROLLED_FILTERS } from "../src/db/filter_engagement.ts";
import type { FilterKey, Filters } from "../src/shared/filters.ts";

export const TZ = "America/Sao_Paulo";
/** 15:00 local on 2 December 2026: today is open (raw rows after the watermark's midnight). */
export const NOW = new Date("2026-12-02T18:00:00Z");

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
