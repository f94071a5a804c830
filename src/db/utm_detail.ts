// Creatives and keywords (utm_content, utm_term) rolled up per day (migrations/00024, docs/ANALYTICS.md "The
// creatives and keywords rankings"). A day's row holds the page views with the value and the plan clicks of
// that day whose session had a page view with it on the click's day or the day before: the definition
// db/filtered.ts utmDetailConversions counts from the raw rows, so both give the same figures. Unfiltered, a
// ranking reads the roll-up up to the watermark and the raw rows after it (db/dashboard_queries.ts SPLIT);
// leads keep their own two values, and are counted from their roll-up per value (db/lead_totals.ts LEAD_DIMS)
// up to the watermark and from the leads table after it.
import type { Queryable } from "./client.ts";
import { backfillPending } from "./rollups.ts";
import { type DayRange, ROLLED, SPLIT } from "./dashboard_queries.ts";
import { LEAD_DIMS_SPLIT, leadDimRows } from "./lead_totals.ts";

export type UtmDetailColumn = "utm_content" | "utm_term";

export interface UtmDetailRow {
  key: string;
  visits: number;
  clicks: number;
  leads: number;
}

// The local day of an instant ($3 the time zone), and the instant a local day starts.
const DAY = (column: string) => `(${column} at time zone $3)::date`;
const START = (day: string) => `(${day})::timestamp at time zone $3`;

/**
 * Rewrites daily_utm_detail from `from` on with the events from from's local midnight to `until`: one pass
 * over the page views, and the plan clicks joined to their session's page views with a value.
 */
export async function rollUpUtmDetail(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  await db.query("delete from daily_utm_detail where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_utm_detail (day, dimension, key, visits, clicks)
       select day, dimension, key, sum(v)::int, sum(c)::int from (
         select ${DAY("occurred_at")} as day, d.dimension, d.key, count(*) as v, 0 as c
           from visits, lateral (values ('utm_content', utm_content), ('utm_term', utm_term)) as d(dimension, key)
          where occurred_at >= ${START("$1::date")} and occurred_at < $2 and d.key <> ''
          group by 1, 2, 3
         union all
         select day, dimension, key, 0, count(*) from (
           select distinct c.id, ${DAY("c.occurred_at")} as day, d.dimension, d.key
             from clicks c
             join visits v on v.session_id = c.session_id
              and v.occurred_at >= ${START(`${DAY("c.occurred_at")} - 1`)}
              and v.occurred_at < ${START(`${DAY("c.occurred_at")} + 1`)}
              and v.occurred_at >= ${START("$1::date - 1")} and v.occurred_at < $2
              and (v.utm_content <> '' or v.utm_term <> ''),
             lateral (values ('utm_content', v.utm_content), ('utm_term', v.utm_term)) as d(dimension, key)
            where c.occurred_at >= ${START("$1::date")} and c.occurred_at < $2
              and c.kind = 'plan' and c.session_id <> '' and d.key <> ''
         ) x group by 1, 2, 3
       ) t group by 1, 2, 3
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * The unfiltered ranking of `column`'s values in the range (the `limit` first; all with null): the roll-up up
 * to the watermark, the raw page views and plan clicks after it, and the range's leads. Null while the
 * roll-up waits for its backfill (the caller reads the raw rows then).
 */
export async function rolledUtmDetail(
  db: Queryable,
  column: UtmDetailColumn,
  range: DayRange,
  tz: string,
  limit: number | null,
): Promise<UtmDetailRow[] | null> {
  if (await backfillPending(db, "utm_detail_backfill")) return null;
  // The raw part: the page views with a value from the day before the first raw instant's day (its clicks'
  // sessions may have started then), and the plan clicks after the watermark.
  return await db.query<UtmDetailRow>(
    `with ${SPLIT}, ${LEAD_DIMS_SPLIT},
     sv as (
       select v.session_id, v.${column} as key, ${
      DAY("v.occurred_at")
    } as d, v.occurred_at >= b.raw_from as fresh
         from visits v, b
        where v.occurred_at >= ${START(`${DAY("b.raw_from")} - 1`)} and v.occurred_at < b.raw_to
          and v.${column} <> '')
     select key, sum(n)::int as visits, sum(c)::int as clicks, sum(l)::int as leads from (
       select key, visits as n, clicks as c, 0 as l from daily_utm_detail, b
        where ${ROLLED} and dimension = '${column}'
       union all
       select key, count(*), 0, 0 from sv where fresh group by 1
       union all
       select key, 0, count(*), 0 from (
         select distinct c.id, sv.key from clicks c, b, sv
          where c.occurred_at >= b.raw_from and c.occurred_at < b.raw_to and c.kind = 'plan'
            and c.session_id <> '' and sv.session_id = c.session_id
            and sv.d between ${DAY("c.occurred_at")} - 1 and ${DAY("c.occurred_at")}) x group by 1
       union all
       select key, 0, 0, leads from (${leadDimRows(column)}) l where key <> ''
     ) t group by key having sum(n) > 0 or sum(l) > 0
     order by visits desc, leads desc, key asc limit $4`,
    [range.start, range.end, tz, limit],
  );
}
