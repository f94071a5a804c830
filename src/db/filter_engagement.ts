// Engagement under one filter (or two: db/filter_dimensions.ts) from a roll-up (migrations/00022,
// docs/ANALYTICS.md "Filters"). The raw path (db/filtered.ts filteredEngagementTotals) reads every page view of
// the period, then every page view and engagement beacon of the selected sessions: seconds at a million visits.
// Its figures are sums of local days (a visit is a session's page views on one day), so with one filter that a
// page view carries in a column, each final day's figures are rolled up per (day, dimension, value) and a view
// reads those rows plus the raw rows from the watermark's day on, as the unfiltered engagement does
// (db/engagement.ts). "Página de entrada" is not rolled up: its sessions are looked for from a day before the
// period's start, so a day's figures depend on the period.
import type { Queryable } from "./client.ts";
import { type BackfillFlag, backfillPending, LOCAL_DAY, SPAN } from "./rollups.ts";
import type { DayRange } from "./dashboard_queries.ts";
import type { EngagementTotals } from "./engagement.ts";
import { filteredDailyUniqueVisitors, filteredEngagementTotals } from "./filtered.ts";
import type { DailyCount } from "./dashboard_queries.ts";
import { addDays } from "../shared/dashboard_math.ts";
import type { Filters } from "../shared/filters.ts";
import {
  dimensionValues,
  type FilterColumns,
  type RolledDimension,
  rolledDimension,
} from "./filter_dimensions.ts";

/** The filters rolled up, and the page-view column each compares. */
export const ROLLED_FILTERS: FilterColumns = {
  channel: "channel",
  source: "traffic_source",
  utm_source: "utm_source",
  utm_medium: "utm_medium",
  utm_campaign: "utm_campaign",
  utm_content: "utm_content",
  utm_term: "utm_term",
  page: "source",
};

// As db/engagement.ts: a page view without a session id is a visit of its own.
const SESSION = "coalesce(nullif(session_id, ''), 'row:' || id::text)";

/**
 * Rewrites daily_filter_engagement from `from` on with the events from from's local midnight to `until`. Call
 * inside a transaction (the roll-up job's): the statement runs with nested-loop joins off for that transaction.
 */
export async function rollUpFilterEngagement(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_filter_engagement where day >= $1::date", [from]);
  // The planner underestimates the CTEs below and joins them with nested loops, each CTE scanned once per row
  // of another: 127 s for 58 days of 12,000 visits on PGlite, 1.1 s with hash joins (the same rows; measured
  // with testing/seed.ts). Off for this statement only: SET LOCAL lasts until the transaction ends, and it is
  // set back right after.
  await db.query("set local enable_nestloop = off");
  const dims = dimensionValues(ROLLED_FILTERS);
  const rows = await db.query<{ n: number }>(
    `with v as (
       select ${LOCAL_DAY} as day, ${SESSION} as sid, visitor_key, ${Object.values(ROLLED_FILTERS).join(", ")}
         from visits where ${SPAN}),
     tot as (select day, sid, count(*) as n from v group by 1, 2),
     c as (select distinct ${LOCAL_DAY} as day, session_id as sid from clicks where ${SPAN} and session_id <> ''),
     vd as (
       select v.day, d.dimension, d.key, v.sid, v.visitor_key, count(*) as n
         from v, lateral (values ${dims}) as d(dimension, key)
        where d.key is not null and d.key <> '' group by 1, 2, 3, 4, 5),
     sel as (select day, dimension, key, sid, sum(n) as n from vd group by 1, 2, 3, 4),
     vis as (select day, dimension, key, count(distinct visitor_key) as visitors from vd group by 1, 2, 3),
     ep as (select ${LOCAL_DAY} as day, session_id as sid, source, sum(engaged_ms) as ms from engagements
             where ${SPAN} group by 1, 2, 3),
     es as (select day, sid, sum(ms) as ms from ep group by 1, 2),
     ins as (
       insert into daily_filter_engagement (day, dimension, key, sessions, bounces, page_views, engaged_ms, visitors)
       select sel.day, sel.dimension, sel.key, count(*)::int,
              (count(*) filter (where tot.n = 1 and c.sid is null))::int, sum(sel.n)::int,
              coalesce(sum(case when sel.dimension = 'page' then ep.ms else es.ms end), 0)::bigint,
              min(vis.visitors)::int
         from sel join tot on tot.day = sel.day and tot.sid = sel.sid
         join vis on vis.day = sel.day and vis.dimension = sel.dimension and vis.key = sel.key
         left join c on c.day = sel.day and c.sid = sel.sid
         left join es on es.day = sel.day and es.sid = sel.sid
         left join ep on sel.dimension = 'page' and ep.day = sel.day and ep.sid = sel.sid and ep.source = sel.key
        group by 1, 2, 3
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  await db.query("set local enable_nestloop = on");
  return rows[0].n;
}

/**
 * The roll-up dimension of `f` (one rolled-up filter, or two of the session's touch: db/filter_dimensions.ts),
 * or null when the view has none, more, or one not rolled up.
 */
export function rolledFilter(f: Filters | undefined): RolledDimension | null {
  return rolledDimension(ROLLED_FILTERS, f);
}

const day = (column: string) => `case when isfinite(${column}) then to_char(${column}, 'YYYY-MM-DD') end`;

/**
 * Where a range splits between the roll-up per filter value and the raw rows: final days (before the
 * watermark's day; with a cut, never the last day) from the roll-up, purged days nowhere (their raw rows are
 * gone, as on the raw path), and the raw rows from the watermark's day (with a cut, at the latest the last day)
 * to the end. Null while a roll-up it reads (each named by its backfill flag table) still waits for its
 * backfill.
 */
export async function rollupSplit(
  db: Queryable,
  range: DayRange,
  until: string | null,
  backfills: BackfillFlag[] = ["filter_engagement_backfill"],
): Promise<{ rolledStart: string; rolledEnd: string; rawStart: string } | null> {
  if (await backfillPending(db, ...backfills)) return null;
  const st = (await db.query<{ through: string | null; purged: string | null }>(
    `select (select ${day("through")} from rollup_state) as through,
            (select ${day("purged_through")} from rollup_state) as purged`,
  ))[0];
  let rolledStart = range.start;
  if (st.purged !== null && addDays(st.purged, 1) > rolledStart) rolledStart = addDays(st.purged, 1);
  let rolledEnd = until === null ? range.end : addDays(range.end, -1);
  if (st.through === null) rolledEnd = addDays(rolledStart, -1);
  else if (addDays(st.through, -1) < rolledEnd) rolledEnd = addDays(st.through, -1);
  let rawStart = range.start;
  if (st.through !== null) {
    const from = until === null || st.through < range.end ? st.through : range.end;
    if (from > rawStart) rawStart = from;
  }
  return { rolledStart, rolledEnd, rawStart };
}

/**
 * filteredEngagementTotals with one rolled-up filter or pair (rolledFilter): the final days from the roll-up,
 * the rest from the raw rows; the same figures. Null when the roll-up cannot answer yet (backfill pending).
 */
export async function rolledFilterEngagementTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<EngagementTotals | null> {
  const filter = rolledFilter(f);
  if (!filter) return null;
  const split = await rollupSplit(db, range, until);
  if (!split) return null;
  const { rolledStart, rolledEnd, rawStart } = split;
  const total: EngagementTotals = { sessions: 0, bounces: 0, pageViews: 0, engagedMs: 0 };
  if (rolledStart <= rolledEnd) {
    const rows = await db.query<EngagementTotals>(
      `select coalesce(sum(sessions), 0)::int as sessions, coalesce(sum(bounces), 0)::int as bounces,
              coalesce(sum(page_views), 0)::int as "pageViews", coalesce(sum(engaged_ms), 0)::float8 as "engagedMs"
         from daily_filter_engagement where dimension = $1 and key = $2 and day between $3::date and $4::date`,
      [filter.name, filter.value, rolledStart, rolledEnd],
    );
    add(total, rows[0]);
  }
  if (rawStart <= range.end) {
    add(total, await filteredEngagementTotals(db, { start: rawStart, end: range.end }, tz, until, f));
  }
  return total;
}

function add(a: EngagementTotals, b: EngagementTotals): void {
  a.sessions += b.sessions;
  a.bounces += b.bounces;
  a.pageViews += b.pageViews;
  a.engagedMs += Number(b.engagedMs);
}

/**
 * filteredDailyUniqueVisitors with one rolled-up filter or pair: the days before the watermark's day from the
 * roll-up (distinct keys of a day are that day's alone), the rest from the raw rows. Null when it cannot answer.
 */
export async function rolledFilterDailyUniqueVisitors(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<DailyCount[] | null> {
  const filter = rolledFilter(f);
  if (!filter) return null;
  const split = await rollupSplit(db, range, null);
  if (!split) return null;
  const { rolledStart, rolledEnd, rawStart } = split;
  const out: DailyCount[] = rolledStart <= rolledEnd
    ? await db.query<DailyCount>(
      `select to_char(day, 'YYYY-MM-DD') as date, visitors as count from daily_filter_engagement
        where dimension = $1 and key = $2 and day between $3::date and $4::date and visitors > 0 order by day`,
      [filter.name, filter.value, rolledStart, rolledEnd],
    )
    : [];
  if (rawStart <= range.end) {
    out.push(...await filteredDailyUniqueVisitors(db, { start: rawStart, end: range.end }, tz, f));
  }
  return out;
}
