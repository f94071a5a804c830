// "Tempo na página" under one filter (or two: db/filter_dimensions.ts) from a roll-up (migrations/00025,
// docs/ANALYTICS.md "Filters"). The raw path (db/filtered.ts filteredPageEngagement) reads every selected page
// view of the period and then the period's engagement beacons: most of a second at a million visits. Its figures
// are sums of local days (a beacon counts for a page its session viewed, selected, that day), so with one
// rolled-up filter each final day's views and visible time are rolled up per (filter value, day, page), and a view
// reads those rows plus the raw rows from the watermark's day on (db/filter_engagement.ts rollupSplit), as the
// engagement totals do.
import type { Queryable } from "./client.ts";
import type { DayRange } from "./dashboard_queries.ts";
import type { PageEngagement } from "./engagement.ts";
import { filteredPageEngagement } from "./filtered.ts";
import { ROLLED_FILTERS, rolledFilter, rollupSplit } from "./filter_engagement.ts";
import { dimensionValues } from "./filter_dimensions.ts";
import type { Filters } from "../shared/filters.ts";
import { LOCAL_DAY, SPAN } from "./rollups.ts";

/**
 * Rewrites daily_filter_page_engagement from `from` on with the events from from's local midnight to `until`.
 * Call inside a transaction (the roll-up job's): like rollUpFilterEngagement, the statement runs with
 * nested-loop joins off for that transaction, then sets them back.
 */
export async function rollUpFilterPageEngagement(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_filter_page_engagement where day >= $1::date", [from]);
  await db.query("set local enable_nestloop = off");
  const dims = dimensionValues(ROLLED_FILTERS);
  const rows = await db.query<{ n: number }>(
    `with vd as (
       select v.day, d.filter, d.value, v.sid, v.page, count(*) as n from (
         select ${LOCAL_DAY} as day, session_id as sid, source as page, ${
      Object.values(ROLLED_FILTERS).join(", ")
    }
           from visits where ${SPAN}) v,
         lateral (values ${dims}) as d(filter, value)
        where d.value is not null and d.value <> '' group by 1, 2, 3, 4, 5),
     pv as (select day, filter, value, page, sum(n) as views from vd group by 1, 2, 3, 4),
     ep as (select ${LOCAL_DAY} as day, session_id as sid, source as page, sum(engaged_ms) as ms from engagements
             where ${SPAN} and session_id <> '' group by 1, 2, 3),
     pm as (
       select vd.day, vd.filter, vd.value, vd.page, sum(ep.ms) as ms
         from vd join ep on ep.day = vd.day and ep.sid = vd.sid and ep.page = vd.page
        where vd.sid <> '' group by 1, 2, 3, 4),
     ins as (
       insert into daily_filter_page_engagement (filter, value, day, page, views, engaged_ms)
       select pv.filter, pv.value, pv.day, pv.page, pv.views::int, coalesce(pm.ms, 0)::bigint
         from pv left join pm on pm.day = pv.day and pm.filter = pv.filter and pm.value = pv.value and pm.page = pv.page
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  await db.query("set local enable_nestloop = on");
  return rows[0].n;
}

/**
 * filteredPageEngagement with one rolled-up filter or pair: the final days from the roll-up, the rest from the
 * raw rows; the same figures. Null when it cannot answer (no such filter, or the backfill still pending).
 */
export async function rolledFilterPageEngagement(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number | null,
  f: Filters,
): Promise<PageEngagement[] | null> {
  const filter = rolledFilter(f);
  if (!filter) return null;
  const split = await rollupSplit(db, range, null, ["filter_page_engagement_backfill"]);
  if (!split) return null;
  const { rolledStart, rolledEnd, rawStart } = split;
  const pages = new Map<string, PageEngagement>();
  const add = (rows: PageEngagement[]) => {
    for (const r of rows) {
      const page = pages.get(r.page) ??
        pages.set(r.page, { page: r.page, views: 0, engagedMs: 0 }).get(r.page)!;
      page.views += r.views;
      page.engagedMs += Number(r.engagedMs);
    }
  };
  if (rolledStart <= rolledEnd) {
    add(
      await db.query<PageEngagement>(
        `select page, sum(views)::int as views, sum(engaged_ms)::float8 as "engagedMs"
           from daily_filter_page_engagement
          where filter = $1 and value = $2 and day between $3::date and $4::date group by page`,
        [filter.name, filter.value, rolledStart, rolledEnd],
      ),
    );
  }
  if (rawStart <= range.end) {
    add(await filteredPageEngagement(db, { start: rawStart, end: range.end }, tz, null, f));
  }
  // Ordered by the database, so ties fall in its collation's order as on the raw path.
  const merged = [...pages.values()];
  return await db.query<PageEngagement>(
    `select page, views, "engagedMs" from unnest($1::text[], $2::int[], $3::float8[]) as t(page, views, "engagedMs")
      order by views desc, page asc limit $4`,
    [merged.map((p) => p.page), merged.map((p) => p.views), merged.map((p) => p.engagedMs), limit],
  );
}
