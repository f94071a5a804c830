// Plan and WhatsApp clicks under one filter (or two: db/filter_dimensions.ts) from a roll-up (migrations/00027,
// docs/ANALYTICS.md "Filters"). A click carries its session's channel, traffic source and UTM source, medium and
// campaign, and a filter on one of those selects clicks by that column of their own (db/filtered.ts, MATCH); the
// page, UTM content, UTM term and entry page select a click through its session's page views of its day and the
// day before (db/session_keys.ts). Either way a click's filters do not depend on the period, so the clicks of
// whole days add up, and `daily_filter_actions` keeps, per local day, filter and value, the clicks of each kind
// per breakdown ('all', 'channel', 'utm_source', and for WhatsApp 'page'). A view with one such filter reads the
// roll-up up to the watermark and the raw clicks after it (db/dashboard_queries.ts SPLIT), exactly what the raw
// path (db/filtered.ts) counts; days whose raw rows are purged count nothing under a filter, so they are left
// out here too (ROLLED_KEPT). The leads beside the clicks come from db/filtered.ts leadRows. The
// audience filters, and a pair with a filter of the session's page views, read the raw rows.
import type { Queryable } from "./client.ts";
import { backfillPending, LOCAL_DAY, SPAN } from "./rollups.ts";
import {
  type DailyCount,
  type DayRange,
  RAW,
  ROLLED_KEPT,
  type SourceConversion,
  SPLIT,
  splitWith,
} from "./dashboard_queries.ts";
import {
  filteredChannelActions,
  filteredConversionBySource,
  filteredDailyClicks,
  filteredEventTotals,
  type FilteredWhatsapp,
  filteredWhatsapp,
  filteredWhatsappTotal,
  inOrder,
  leadRows,
} from "./filtered.ts";
import { filterEntries, type Filters } from "../shared/filters.ts";
import { dimensionValues, type FilterColumns, rolledDimension } from "./filter_dimensions.ts";
import {
  midnight,
  SAME_SESSION_DAYS,
  SESSION_VALUES,
  sessionViewed,
  sessionViewValues,
} from "./session_keys.ts";

/** The filters a click answers by a column of its own, and that column. */
export const ACTION_FILTERS: FilterColumns = {
  channel: "channel",
  source: "traffic_source",
  utm_source: "utm_source",
  utm_medium: "utm_medium",
  utm_campaign: "utm_campaign",
};

// The period's instants for the leads beside the clicks (b's end as a scalar: a session condition's lookup
// that referred to b's row would run once per lead).
const LEAD_BOUNDS = { lo: "($1::date::timestamp at time zone $3)", hi: "(select raw_to from b)", tz: "$3" };
// Each click under each breakdown: its key there, or null where it has none.
const BREAKDOWNS = `('all', ''), ('channel', channel), ('utm_source', coalesce(utm_source, '')),
  ('page', case when kind = 'whatsapp' then nullif(source, '') end)`;

/** Rewrites daily_filter_actions from `from` on with the clicks from from's local midnight to `until`. */
export async function rollUpFilterActions(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_filter_actions where day >= $1::date", [from]);
  const columns = Object.values(ACTION_FILTERS);
  const filters = dimensionValues(ACTION_FILTERS);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_filter_actions (filter, value, day, kind, dimension, key, clicks)
       select f.filter, f.value, t.day, t.kind, d.dimension, d.key, sum(t.n)::int from (
         select ${LOCAL_DAY} as day, kind, ${columns.join(", ")}, source, count(*) as n
           from clicks where ${SPAN} group by ${columns.map((_, i) => i + 3).concat(1, 2, columns.length + 3)}
       ) t,
       lateral (values ${filters}) as f(filter, value),
       lateral (values ${BREAKDOWNS}) as d(dimension, key)
        where f.value is not null and f.value <> '' and d.key is not null
        group by 1, 2, 3, 4, 5, 6
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  // The filters a click answers through its session: each click under the values its session's page views had
  // on the click's day or the day before (db/session_keys.ts), every view of those days there is so far.
  const bySession = await db.query<{ n: number }>(
    `with c as (
       select id, ${LOCAL_DAY} as day, kind, channel, utm_source, source, session_id from clicks
        where ${SPAN} and session_id <> ''),
     v as (${sessionViewValues("c", midnight("$2::timestamptz", "$3", 1))}),
     t as (
       select distinct c.id, c.day, c.kind, c.channel, c.utm_source, c.source, v.filter, v.value
         from c join v on ${SAME_SESSION_DAYS("c", "v")}),
     ins as (
       insert into daily_filter_actions (filter, value, day, kind, dimension, key, clicks)
       select t.filter, t.value, t.day, t.kind, d.dimension, d.key, count(*)::int
         from t, lateral (values ${BREAKDOWNS}) as d(dimension, key)
        where d.key is not null
        group by 1, 2, 3, 4, 5, 6
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n + bySession[0].n;
}

/** A dimension of the roll-up: its name, its value, and the condition that selects a raw click by it. */
interface ActionDimension {
  name: string;
  value: string;
  /** The condition on a raw click (`alias` as in "c.") of the range after the watermark (needs b), `p` the value. */
  match(alias: string, p: string): string;
}

/**
 * The roll-up dimension that answers `f` (one of ACTION_FILTERS, or two: db/filter_dimensions.ts); null when it
 * cannot (read the raw rows).
 */
async function rolledActionFilter(db: Queryable, f: Filters | undefined): Promise<ActionDimension | null> {
  const d = actionDimension(f);
  return !d || await backfillPending(db, "filter_actions_backfill") ? null : d;
}

function actionDimension(f: Filters | undefined): ActionDimension | null {
  const entries = filterEntries(f);
  if (entries.length === 1 && entries[0][0] in SESSION_VALUES) {
    const [key, value] = entries[0];
    // The raw clicks' sessions are looked for among the page views of their days (b's bounds as scalars: a
    // reference to b's row would make the lookup run once per click).
    const views = `s.occurred_at >= ${midnight("(select raw_from from b)", "$3", -1)}
      and s.occurred_at < ${midnight("(select raw_to from b) - interval '1 microsecond'", "$3", 1)}`;
    return {
      name: key,
      value,
      match: (a, p) => sessionViewed(key, p, a.replace(/\.$/, ""), "occurred_at", views, "$3"),
    };
  }
  const d = rolledDimension(ACTION_FILTERS, f);
  return d && { name: d.name, value: d.value, match: (a, p) => `${d.sql(a)} = ${p}` };
}

/**
 * The clicks of one kind under the filter, per breakdown key (and per day with `byDay`): the raw clicks after
 * the watermark and the roll-up before it, as one union. $1 start, $2 end, $3 time zone (and the cut, when the
 * split has one); from $p on: the value, the filter, the kind, the breakdown.
 */
function actionsSql(r: ActionDimension, keyOf: string, byDay: boolean, p: number): string {
  const [value, filter, kind, dimension] = [p, p + 1, p + 2, p + 3].map((i) => `$${i}`);
  const day = byDay ? `(c.occurred_at at time zone $3)::date` : "null::date";
  return `select ${day} as day, ${keyOf} as key, count(*) as n from clicks c, b
           where ${RAW("c.occurred_at")} and c.kind = ${kind} and ${r.match("c.", value)} group by 1, 2
          union all
          select ${byDay ? "day" : "null::date"}, key, clicks from daily_filter_actions, b
           where filter = ${filter} and value = ${value} and kind = ${kind} and dimension = ${dimension}
             and ${ROLLED_KEPT}`;
}

/** filteredEventTotals from the roll-up (plan clicks) and the raw leads; null when it cannot answer. */
export async function rolledFilteredEventTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<{ clicks: number; conversions: number; leads: number } | null> {
  const r = await rolledActionFilter(db, f);
  if (!r) return null;
  const params: unknown[] = [range.start, range.end, tz, until, r.value, r.name, "plan", "all"];
  const leads = leadRows(f, params, LEAD_BOUNDS);
  const rows = await db.query<{ clicks: number; leads: number }>(
    `with ${splitWith("$4")}
     select (select coalesce(sum(n), 0) from (${actionsSql(r, "''", false, 5)}) t)::int as clicks,
            (select coalesce(sum(n), 0) from (${leads}) l)::int as leads`,
    params,
  );
  return { clicks: rows[0].clicks, conversions: rows[0].leads, leads: rows[0].leads };
}

/** filteredDailyClicks from the roll-up; null when it cannot answer. */
export async function rolledFilteredDailyClicks(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<DailyCount[] | null> {
  const r = await rolledActionFilter(db, f);
  if (!r) return null;
  return await db.query<DailyCount>(
    `with ${SPLIT}
     select to_char(day, 'YYYY-MM-DD') as date, sum(n)::int as count from (${actionsSql(r, "''", true, 4)}) t
      group by day order by day`,
    [range.start, range.end, tz, r.value, r.name, "plan", "all"],
  );
}

/** filteredChannelActions from the roll-up; null when it cannot answer. */
export async function rolledFilteredChannelActions(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<{ channel: string; clicks: number }[] | null> {
  const r = await rolledActionFilter(db, f);
  if (!r) return null;
  return await db.query(
    `with ${SPLIT}
     select key as channel, sum(n)::int as clicks from (${actionsSql(r, "c.channel", false, 4)}) t
      where key is not null group by key`,
    [range.start, range.end, tz, r.value, r.name, "plan", "channel"],
  );
}

/** filteredConversionBySource from the roll-up (plan clicks) and the raw leads; null when it cannot answer. */
export async function rolledFilteredConversionBySource(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<SourceConversion[] | null> {
  const r = await rolledActionFilter(db, f);
  if (!r) return null;
  const params: unknown[] = [range.start, range.end, tz, r.value, r.name, "plan", "utm_source"];
  const leads = leadRows(f, params, LEAD_BOUNDS);
  return await db.query<SourceConversion>(
    `with ${SPLIT}
     select s as "utmSource", sum(c)::int as clicks, sum(v)::int as conversions from (
       select nullif(key, '') as s, n as c, 0 as v from (${
      actionsSql(r, "coalesce(c.utm_source, '')", false, 4)
    }) a
       union all
       select nullif(utm_source, ''), 0, sum(n) from (${leads}) l group by 1
     ) t group by s order by clicks desc, conversions desc, "utmSource" asc nulls last`,
    params,
  );
}

/** filteredWhatsapp from the roll-up; null when it cannot answer. */
export async function rolledFilteredWhatsapp(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
  pageLimit: number,
): Promise<FilteredWhatsapp | null> {
  const r = await rolledActionFilter(db, f);
  if (!r) return null;
  // Every breakdown at once: the raw clicks spread over them as in the roll-up, per day for 'all' only.
  const rows = await db.query<{ dimension: string; date: string | null; key: string; n: number }>(
    `with ${SPLIT}
     select dimension, to_char(d, 'YYYY-MM-DD') as date, key, sum(n)::int as n from (
       select x.dimension, case when x.dimension = 'all' then t.day end as d, x.key, t.n from (
         select (c.occurred_at at time zone $3)::date as day, c.kind, c.channel, c.utm_source, c.source,
                count(*) as n
           from clicks c, b where ${RAW("c.occurred_at")} and c.kind = $6 and ${r.match("c.", "$4")}
          group by 1, 2, 3, 4, 5) t,
         lateral (values ${BREAKDOWNS}) as x(dimension, key)
        where x.key is not null
       union all
       select dimension, case when dimension = 'all' then day end, key, clicks from daily_filter_actions, b
        where filter = $5 and value = $4 and kind = $6 and ${ROLLED_KEPT}
     ) t group by 1, 2, 3`,
    [range.start, range.end, tz, r.value, r.name, "whatsapp"],
  );
  const out: FilteredWhatsapp = { daily: [], byChannel: [], bySource: [], pages: [] };
  for (const row of rows) {
    if (row.dimension === "all") out.daily.push({ date: row.date!, count: row.n });
    else if (row.dimension === "channel") out.byChannel.push({ channel: row.key, whatsappClicks: row.n });
    else if (row.dimension === "utm_source") {
      out.bySource.push({ utmSource: row.key === "" ? null : row.key, whatsappClicks: row.n });
    } else if (row.dimension === "page") out.pages.push({ key: row.key, visits: row.n });
  }
  return inOrder(out, pageLimit);
}

/** filteredWhatsappTotal from the roll-up; null when it cannot answer. */
export async function rolledFilteredWhatsappTotal(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<number | null> {
  const r = await rolledActionFilter(db, f);
  if (!r) return null;
  const rows = await db.query<{ n: number }>(
    `with ${splitWith("$4")}
     select coalesce(sum(n), 0)::int as n from (${actionsSql(r, "''", false, 5)}) t`,
    [range.start, range.end, tz, until, r.value, r.name, "whatsapp", "all"],
  );
  return rows[0].n;
}

// The reports' entry points: from the roll-up when it can answer, else from the raw rows.

export async function eventTotalsUnderFilters(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
) {
  return (await rolledFilteredEventTotals(db, range, tz, until, f)) ??
    await filteredEventTotals(db, range, tz, until, f);
}

export async function dailyClicksUnderFilters(db: Queryable, range: DayRange, tz: string, f: Filters) {
  return (await rolledFilteredDailyClicks(db, range, tz, f)) ?? await filteredDailyClicks(db, range, tz, f);
}

export async function channelActionsUnderFilters(db: Queryable, range: DayRange, tz: string, f: Filters) {
  return (await rolledFilteredChannelActions(db, range, tz, f)) ??
    await filteredChannelActions(db, range, tz, f);
}

export async function conversionBySourceUnderFilters(db: Queryable, range: DayRange, tz: string, f: Filters) {
  return (await rolledFilteredConversionBySource(db, range, tz, f)) ??
    await filteredConversionBySource(db, range, tz, f);
}

export async function whatsappUnderFilters(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
  pageLimit: number,
) {
  return (await rolledFilteredWhatsapp(db, range, tz, f, pageLimit)) ??
    await filteredWhatsapp(db, range, tz, f, pageLimit);
}

export async function whatsappTotalUnderFilters(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
) {
  return (await rolledFilteredWhatsappTotal(db, range, tz, until, f)) ??
    await filteredWhatsappTotal(db, range, tz, until, f);
}
