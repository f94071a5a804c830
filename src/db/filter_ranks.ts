// The visit rankings under one filter (or two: db/filter_dimensions.ts) from a roll-up (migrations/00022,
// docs/ANALYTICS.md "Filters"): per local day, filter dimension and value (a column of the page view:
// db/filter_engagement.ts ROLLED_FILTERS), the visits per ranking key, as daily_visit_ranks holds them for the
// unfiltered view. Visits add up across any instant, so a view reads the roll-up up to the watermark and the raw
// rows after it (db/dashboard_queries.ts SPLIT), exactly what db/filtered.ts filteredRanking counts from the raw
// rows. Days whose raw rows are purged count nothing under a filter there, so they are left out here too.
import type { Queryable } from "./client.ts";
import { backfillPending, LOCAL_DAY, SPAN } from "./rollups.ts";
import { type DayRange, ROLLED_KEPT, SPLIT } from "./dashboard_queries.ts";
import {
  type Ranking,
  RANKINGS,
  type RankItem,
  type RankItemWithPrevious,
  ROLLED_DIMENSIONS,
  rolledOf,
} from "./rankings.ts";
import { filteredRanking, filteredRankingWithPrevious } from "./filtered.ts";
import { ROLLED_FILTERS, rolledFilter } from "./filter_engagement.ts";
import { dimensionValues } from "./filter_dimensions.ts";
import type { Filters } from "../shared/filters.ts";

/** Rewrites daily_filter_visit_ranks from `from` on with the visits from from's local midnight to `until`. */
export async function rollUpFilterRanks(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_filter_visit_ranks where day >= $1::date", [from]);
  const columns = [...new Set([...Object.values(ROLLED_FILTERS), "entry"])];
  const filters = dimensionValues(ROLLED_FILTERS);
  const dims = ROLLED_DIMENSIONS.map(([d, col]) => `('${d}', ${col})`).join(", ");
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_filter_visit_ranks (filter, value, day, dimension, key, visits)
       select f.filter, f.value, t.day, d.dimension, d.key, sum(t.n)::int from (
         select ${LOCAL_DAY} as day, ${columns.join(", ")}, count(*) as n
           from visits where ${SPAN} group by ${
      columns.map((_, i) => i + 1).concat(columns.length + 1).join(", ")
    }
       ) t,
       lateral (values ${filters}) as f(filter, value),
       lateral (values ${dims}) as d(dimension, key)
        where f.value is not null and f.value <> '' and d.key is not null and d.key <> ''
        group by 1, 2, 3, 4, 5
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/** Whether filteredRanking(ranking, f) can be read from the roll-up: one rolled filter (or pair) and a rolled key. */
function rolledRanking(ranking: Ranking, f: Filters | undefined) {
  const filter = rolledFilter(f);
  const rank = rolledOf(ranking);
  return filter && rank ? { filter, rank } : null;
}

/** filteredRanking from the roll-up; null when it cannot answer (the caller reads the raw rows). */
export async function rolledFilteredRanking(
  db: Queryable,
  ranking: Ranking,
  range: DayRange,
  tz: string,
  limit: number,
  f: Filters | undefined,
): Promise<RankItem[] | null> {
  const r = rolledRanking(ranking, f);
  if (!r || await backfillPending(db, "filter_engagement_backfill")) return null;
  return await db.query<RankItem>(
    `with ${SPLIT}
     select key, sum(n)::int as visits from (
       select ${RANKINGS[ranking].column} as key, count(*) as n from visits v, b
        where v.occurred_at >= b.raw_from and v.occurred_at < b.raw_to and ${
      r.filter.sql("v.")
    } = $5 group by 1
       union all
       select ${r.rank.key}, visits from daily_filter_visit_ranks, b
        where filter = $6 and value = $5 and dimension = '${r.rank.dimension}' and ${ROLLED_KEPT}
     ) t where key is not null and key <> '' group by key order by visits desc, key asc limit $4`,
    [range.start, range.end, tz, limit, r.filter.value, r.filter.name],
  );
}

/** filteredRankingWithPrevious from the roll-up; null when it cannot answer. */
export async function rolledFilteredRankingWithPrevious(
  db: Queryable,
  ranking: Ranking,
  range: DayRange,
  previous: DayRange,
  tz: string,
  limit: number,
  f: Filters,
): Promise<RankItemWithPrevious[] | null> {
  const r = rolledRanking(ranking, f);
  if (!r || await backfillPending(db, "filter_engagement_backfill")) return null;
  // One pass over previous.start..range.end: $5 is the range's start, $6 the comparison's end.
  return await db.query<RankItemWithPrevious>(
    `with ${SPLIT}
     select key, (sum(n) filter (where d >= $5::date))::int as visits,
            coalesce(sum(n) filter (where d <= $6::date), 0)::int as "previousVisits" from (
       select ${RANKINGS[ranking].column} as key, (v.occurred_at at time zone $3)::date as d, count(*) as n
         from visits v, b
        where v.occurred_at >= b.raw_from and v.occurred_at < b.raw_to and ${
      r.filter.sql("v.")
    } = $7 group by 1, 2
       union all
       select ${r.rank.key}, day, visits from daily_filter_visit_ranks, b
        where filter = $8 and value = $7 and dimension = '${r.rank.dimension}' and ${ROLLED_KEPT}
     ) t where key is not null and key <> ''
     group by key having sum(n) filter (where d >= $5::date) > 0
     order by visits desc, key asc limit $4`,
    [previous.start, range.end, tz, limit, range.start, previous.end, r.filter.value, r.filter.name],
  );
}

/** filteredRanking: from the roll-up when it can answer, else from the raw rows. */
export async function rankingUnderFilters(
  db: Queryable,
  ranking: Ranking,
  range: DayRange,
  tz: string,
  limit: number,
  f: Filters | undefined,
): Promise<RankItem[]> {
  return (await rolledFilteredRanking(db, ranking, range, tz, limit, f)) ??
    await filteredRanking(db, ranking, range, tz, limit, f);
}

/** filteredRankingWithPrevious: from the roll-up when it can answer, else from the raw rows. */
export async function rankingWithPreviousUnderFilters(
  db: Queryable,
  ranking: Ranking,
  range: DayRange,
  previous: DayRange,
  tz: string,
  limit: number,
  f: Filters,
): Promise<RankItemWithPrevious[]> {
  return (await rolledFilteredRankingWithPrevious(db, ranking, range, previous, tz, limit, f)) ??
    await filteredRankingWithPrevious(db, ranking, range, previous, tz, limit, f);
}
