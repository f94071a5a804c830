// Every ranking of visits in one table (RANKINGS): the expression it counts per page view and, for the
// rankings that are rolled up, the roll-up dimension and how a roll-up key maps to the ranking's key (the way
// the expression maps a page view). Unfiltered rankings are read here: the roll-up (daily_visit_ranks) up to
// the watermark plus the raw rows after it (db/dashboard_queries.ts splitWith). Under filters, db/filtered.ts
// (raw rows) and db/filter_ranks.ts (the per-filter roll-up) read the same table; the roll-up jobs write the
// dimensions ROLLED_DIMENSIONS lists.
import type { Queryable } from "./client.ts";
import { type DayRange, RAW, ROLLED, SPLIT } from "./dashboard_queries.ts";
import { MONTH_SPLIT, ROLLED_DAYS, ROLLED_MONTHS } from "./months.ts";

/**
 * A visit's landing page for the "Páginas de entrada" ranking (null unless it started its session): its path
 * without the query string, whose campaign parameters would split one page into many.
 */
export const ENTRY_PAGE = "case when entry then split_part(source, '?', 1) end";

interface RankingDef {
  /** What a page view counts under (SQL over `visits`). */
  column: string;
  /** Where the roll-ups keep it: their dimension, and the ranking's key from their `key`. */
  rolled?: { dimension: string; key: string };
}

export const RANKINGS = {
  utm_source: { column: "utm_source", rolled: { dimension: "utm_source", key: "key" } },
  utm_campaign: { column: "utm_campaign", rolled: { dimension: "utm_campaign", key: "key" } },
  // Creatives and keywords are read from the raw rows only.
  utm_content: { column: "utm_content" },
  utm_term: { column: "utm_term" },
  // Pages by page key (path plus query without click ids, src/shared/page_key.ts), or by path alone.
  page: { column: "source", rolled: { dimension: "page", key: "key" } },
  page_path: {
    column: "split_part(source, '?', 1)",
    rolled: { dimension: "page", key: "split_part(key, '?', 1)" },
  },
  // Traffic sources: UTM source, else the referrer's name or host, else "direto".
  source: { column: "traffic_source", rolled: { dimension: "source", key: "key" } },
  channel: { column: "channel", rolled: { dimension: "channel", key: "key" } },
  // Landing pages count entries (sessions that started on them), not page views.
  entry_page: { column: ENTRY_PAGE, rolled: { dimension: "entry_page", key: "key" } },
} as const satisfies Record<string, RankingDef>;

export type Ranking = keyof typeof RANKINGS;
/** The rankings the roll-ups keep. */
export type RolledRanking = {
  [K in Ranking]: typeof RANKINGS[K] extends { rolled: object } ? K : never;
}[Ranking];

const DEFINITIONS: Record<string, RankingDef> = RANKINGS;

/** The roll-up dimensions and the page-view expression each is written from (a roll-up key is this value). */
export const ROLLED_DIMENSIONS: [dimension: string, column: string][] = Object.values(DEFINITIONS)
  .filter((r) => r.rolled?.key === "key")
  .map((r) => [r.rolled!.dimension, r.column]);

/** The roll-up of a ranking, if it has one. */
export function rolledOf(ranking: Ranking): { dimension: string; key: string } | undefined {
  return DEFINITIONS[ranking].rolled;
}

export interface RankItem {
  key: string;
  visits: number;
}

export interface RankItemWithPrevious extends RankItem {
  previousVisits: number;
}

// The top $4 keys of the days $1 to $2 (all of them when $4 is null); ties are broken by the key so the order
// is stable from one request to the next.
const TOP = (ranking: RolledRanking) => {
  const { column, rolled } = RANKINGS[ranking];
  return `with ${SPLIT}, ${MONTH_SPLIT}
   select key, sum(n)::int as visits from (
     select ${column} as key, count(*) as n from visits, b
      where ${RAW("occurred_at")} and ${column} is not null and ${column} <> '' group by 1
     union all
     -- Added up per key first: the rows are hashed, where the whole union would be sorted (a month of page
     -- keys' day rows at 10,000,000 visits: 18 -> 11 ms).
     select ${rolled.key}, sum(visits) from monthly_visit_ranks, bm
      where ${ROLLED_MONTHS} and dimension = '${rolled.dimension}' group by 1
     union all
     select ${rolled.key}, sum(visits) from daily_visit_ranks, bm
      where ${ROLLED_DAYS} and dimension = '${rolled.dimension}' group by 1
   ) t group by key order by visits desc, key asc limit $4`;
};

// The top $4 keys of the days from $5 to $2, each with its visits on the days from $1 to $6 (the comparison
// range, which ends before $5): one pass over the days from $1 to $2.
const TOP_WITH_PREVIOUS = (ranking: RolledRanking) => {
  const { column, rolled } = RANKINGS[ranking];
  return `with ${SPLIT}
   select key, (sum(n) filter (where d >= $5::date))::int as visits,
          coalesce(sum(n) filter (where d <= $6::date), 0)::int as "previousVisits" from (
     select ${column} as key, (occurred_at at time zone $3)::date as d, count(*) as n from visits, b
      where ${RAW("occurred_at")} and ${column} is not null and ${column} <> '' group by 1, 2
     union all
     select ${rolled.key}, day, visits from daily_visit_ranks, b where ${ROLLED} and dimension = '${rolled.dimension}'
   ) t group by key having sum(n) filter (where d >= $5::date) > 0
   order by visits desc, key asc limit $4`;
};

/** The `limit` most visited keys of a ranking in the range. */
export async function topRanked(
  db: Queryable,
  ranking: RolledRanking,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(TOP(ranking), [range.start, range.end, tz, limit]);
}

/** The top items of a ranking in the range, each with its visits in `previous` (days before the range). */
export async function topRankedWithPrevious(
  db: Queryable,
  ranking: RolledRanking,
  range: DayRange,
  previous: DayRange,
  tz: string,
  limit: number,
): Promise<RankItemWithPrevious[]> {
  return await db.query<RankItemWithPrevious>(TOP_WITH_PREVIOUS(ranking), [
    previous.start,
    range.end,
    tz,
    limit,
    range.start,
    previous.end,
  ]);
}

/** One page of a full ranking: rows `offset` to `offset + limit`, of the keys containing `search` (any case). */
export interface RankPage {
  limit: number;
  offset: number;
  search?: string;
}

/**
 * One page of a whole ranking in the range (with `previous`, each key's visits in those days too, as
 * topRankedWithPrevious), and how many keys match in all: the ranking's own statement with no limit
 * (`limit null`), narrowed and paged around it, so the order and counts are the top 10's.
 */
export async function rankingPage(
  db: Queryable,
  ranking: RolledRanking,
  range: DayRange,
  tz: string,
  page: RankPage,
  previous?: DayRange,
): Promise<{ items: (RankItem & { previousVisits?: number })[]; total: number }> {
  const [sql, params] = previous
    ? [TOP_WITH_PREVIOUS(ranking), [previous.start, range.end, tz, null, range.start, previous.end]]
    : [TOP(ranking), [range.start, range.end, tz, null]];
  const n = params.length;
  const paged = (limit: number, offset: number) =>
    db.query<RankItem & { previousVisits?: number; total: number }>(
      `select *, count(*) over ()::int as total from (${sql}) r
        where $${n + 1}::text is null or strpos(lower(key), lower($${n + 1}::text)) > 0
        order by visits desc, key asc limit $${n + 2} offset $${n + 3}`,
      [...params, page.search || null, limit, offset],
    );
  let rows = await paged(page.limit, page.offset);
  // A page past the last still says how many there are.
  const total = rows.length > 0 ? rows[0].total : page.offset > 0 ? ((await paged(1, 0))[0]?.total ?? 0) : 0;
  rows = rows.map(({ total: _, ...r }) => r as typeof rows[number]);
  return { items: rows, total };
}
