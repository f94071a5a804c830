// The dashboard's reports under filters (src/shared/filters.ts). The roll-ups are grouped by one dimension at
// a time, so they cannot answer an arbitrary combination of filters: a filtered report reads the raw rows of
// its range (by the occurred_at and submitted_at indexes), which retention keeps RETENTION_DAYS; days whose raw
// rows are gone count nothing under a filter. Unfiltered reports never come here (db/dashboard_queries.ts, roll-ups).
// docs/ANALYTICS.md ("Filters") says what each filter selects per kind of event and why.
import type { Filters } from "../shared/filters.ts";
import { filterEntries, type FilterKey } from "../shared/filters.ts";
import { dayStart, KEYED_EVENTS, KEYS_UNTIL, midnight, sessionDays, sessionViewed } from "./session_keys.ts";
import type { DailyCount, DayRange, SourceConversion } from "./dashboard_queries.ts";
import type { Queryable } from "./client.ts";
import type { EngagementTotals, PageEngagement } from "./engagement.ts";
import { type Ranking, RANKINGS, type RankItem, type RankItemWithPrevious } from "./rankings.ts";
import type { UtmDetailColumn, UtmDetailRow } from "./utm_detail.ts";

/** The tables a filter narrows. */
export type FilteredTable = "visits" | "clicks" | "leads";

// What each filter compares, per table: a column of the row itself (the session's touch is stored on each of
// its page views and clicks, the last touch on each lead), or, where the row lacks it, "session": the row's
// session must have a page view with the filter's value on the row's local day or the day before
// (db/session_keys.ts SESSION_VALUES says what that value is on a page view).
type Match = { column: string } | "session";
const AUDIENCE: Record<string, Match> = {
  device: { column: "device" },
  browser: { column: "browser" },
  os: { column: "os" },
  country: { column: "country" },
  region: { column: "region" },
};
const MATCH: Record<FilteredTable, Record<string, Match>> = {
  visits: {
    channel: { column: "channel" },
    source: { column: "traffic_source" },
    utm_source: { column: "utm_source" },
    utm_medium: { column: "utm_medium" },
    utm_campaign: { column: "utm_campaign" },
    utm_content: { column: "utm_content" },
    utm_term: { column: "utm_term" },
    page: { column: "source" },
    entry_page: "session",
    ...AUDIENCE,
  },
  clicks: {
    channel: { column: "channel" },
    source: { column: "traffic_source" },
    utm_source: { column: "utm_source" },
    utm_medium: { column: "utm_medium" },
    utm_campaign: { column: "utm_campaign" },
    utm_content: "session",
    utm_term: "session",
    page: "session",
    entry_page: "session",
    ...AUDIENCE,
  },
  leads: {
    channel: { column: "last_channel" },
    source: { column: "last_source" },
    utm_source: { column: "utm_source" },
    utm_medium: { column: "utm_medium" },
    utm_campaign: { column: "utm_campaign" },
    utm_content: "session",
    utm_term: "session",
    page: "session",
    entry_page: "session",
    ...AUDIENCE,
  },
};

/** The period a filter reads: SQL expressions of its first and end instants and of the time zone. */
export interface FilterBounds {
  lo: string;
  hi: string;
  tz: string;
}

/**
 * A session condition on the rows of `table` (as `alias`): the row's (session, local day) is among the
 * (session, day) pairs of the page views with value `p` (db/session_keys.ts). Clicks and leads before
 * KEYS_UNTIL are found by their session keys instead, written once their day was over; page views (the entry
 * page filter) and the later events look through the page views of their days. The two sets of ids are joined
 * by `union`, not `union all`: the planner then takes them as distinct, with its estimate of the keys' rows, and
 * hashes them against the period's rows (a month of the home page's clicks: 200 ms by one index probe per id
 * with `union all`, 100 ms so).
 */
function sessionSql(key: FilterKey, table: FilteredTable, alias: string, p: string, b: FilterBounds): string {
  const last = `((${b.hi}) - interval '1 microsecond')`;
  const views = (from: string) =>
    `s.occurred_at >= ${midnight(from, b.tz, -1)} and s.occurred_at < ${midnight(last, b.tz, 1)}`;
  const day = (t: string) => `(${t} at time zone ${b.tz})::date`;
  if (table === "visits") {
    return ` and (${alias}.session_id, ${day(`${alias}.occurred_at`)}) in (${
      sessionDays(key, p, views(b.lo), b.tz)
    })`;
  }
  const { event, time } = KEYED_EVENTS[table];
  const from = `greatest(${b.lo}, ${KEYS_UNTIL})`;
  return ` and ${alias}.id in (
      select k.id from session_keys k
       where k.event = '${event}' and k.filter = '${key}' and k.value = ${p}
         and k.day >= ${day(b.lo)} and k.day <= ${day(last)}
      union
      select e.id from ${table} e
       where e.${time} >= ${from} and e.${time} < ${b.hi}
         and ${sessionViewed(key, p, "e", time, views(from), b.tz)})`;
}

/** The instants of the whole days $1 to $2 ($3 the time zone). */
export const RANGE_BOUNDS: FilterBounds = {
  lo: "($1::date::timestamp at time zone $3)",
  hi: "(($2::date + 1)::timestamp at time zone $3)",
  tz: "$3",
};

/** Whether a filter on `table` looks through the sessions' page views (its SQL then uses `bounds.tz`). */
export function readsSessions(filters: Filters | undefined, table: FilteredTable): boolean {
  return filterEntries(filters).some(([key]) => MATCH[table][key] === "session");
}

/**
 * THE filter helper: the conditions (each starting with " and ") that keep the rows of `table` (as `alias`)
 * matching every filter. Values are pushed onto `params`; `bounds` are the period's first and end instants and
 * its time zone, bounding the page views a session condition reads.
 */
export function filterSql(
  filters: Filters | undefined,
  table: FilteredTable,
  params: unknown[],
  bounds: FilterBounds,
  alias: string = table,
): string {
  let sql = "";
  for (const [key, value] of filterEntries(filters)) {
    params.push(value);
    const p = `$${params.length}`;
    const m = MATCH[table][key];
    sql += m === "session" ? sessionSql(key, table, alias, p, bounds) : ` and ${alias}.${m.column} = ${p}`;
  }
  return sql;
}

/**
 * The leads of [bounds.lo, bounds.hi) under `f` (bounds.lo a local midnight, or -infinity), one row per
 * (day, utm_source, last_channel) with their number `n`; '' for no UTM source or no channel. Values are pushed
 * onto `params`. Every report that counts leads under filters adds these rows up. Under one filter answered
 * through the session, the whole days before the keys' end come from their sum, `daily_filter_leads`
 * (db/filter_leads.ts), and only the leads after it are read one by one.
 */
export function leadRows(f: Filters | undefined, params: unknown[], bounds: FilterBounds): string {
  const entries = filterEntries(f);
  const raw = (b: FilterBounds) =>
    `select (l.submitted_at at time zone ${b.tz})::date as day, coalesce(l.utm_source, '') as utm_source,
            coalesce(l.last_channel, '') as last_channel, count(*) as n
       from leads l where l.submitted_at >= ${b.lo} and l.submitted_at < ${b.hi}${
      filterSql(f, "leads", params, b, "l")
    } group by 1, 2, 3`;
  if (entries.length !== 1 || !readsSessions(f, "leads")) return raw(bounds);
  const [[key, value]] = entries;
  params.push(key, value);
  const [filter, v] = [`$${params.length - 1}`, `$${params.length}`];
  // The days before the keys' end, and before the period's end day when it ends within a day (a cut).
  const rolledTo =
    `least((${KEYS_UNTIL} at time zone ${bounds.tz})::date, ((${bounds.hi}) at time zone ${bounds.tz})::date)`;
  return `select day, utm_source, last_channel, leads as n from daily_filter_leads
           where filter = ${filter} and value = ${v}
             and day >= ((${bounds.lo}) at time zone ${bounds.tz})::date and day < ${rolledTo}
          union all
          ${raw({ ...bounds, lo: `greatest(${bounds.lo}, ${dayStart(rolledTo, bounds.tz, 0)})` })}`;
}

// $1 start date, $2 end date, $3 time zone, $4 the end day's cut (local HH:mm:ss) or null: the period's
// instants are [LO, HI).
const LO = "($1::date::timestamp at time zone $3)";
const HI =
  "coalesce(($2::date + $4::text::time)::timestamp at time zone $3, ($2::date + 1)::timestamp at time zone $3)";
const BOUNDS: FilterBounds = { lo: LO, hi: HI, tz: "$3" };
/** Plan clicks only (a WhatsApp click is counted apart, migrations/00017). */
const PLAN = " and c.kind = 'plan'";
const IN = (column: string) => `${column} >= ${LO} and ${column} < ${HI}`;
const DAY = (column: string) => `(${column} at time zone $3)::date`;

function base(range: DayRange, tz: string, until: string | null = null): unknown[] {
  return [range.start, range.end, tz, until];
}

/** Leads per local day under the filters (days without leads are absent). */
export async function filteredDailyLeads(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<DailyCount[]> {
  const params = base(range, tz);
  return await db.query<DailyCount>(
    `select to_char(day, 'YYYY-MM-DD') as date, sum(n)::int as count
       from (${leadRows(f, params, BOUNDS)}) r group by day order by day`,
    params,
  );
}

/** Plan clicks per local day under the filters. */
export async function filteredDailyClicks(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<DailyCount[]> {
  const params = base(range, tz);
  const where = filterSql(f, "clicks", params, BOUNDS, "c");
  return await db.query<DailyCount>(
    `select to_char(${DAY("occurred_at")}, 'YYYY-MM-DD') as date, count(*)::int as count
       from clicks c where ${IN("occurred_at")}${PLAN}${where} group by 1 order by 1`,
    params,
  );
}

/** Distinct visitors per local day under the filters. */
export async function filteredDailyUniqueVisitors(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<DailyCount[]> {
  const params = base(range, tz);
  const where = filterSql(f, "visits", params, BOUNDS, "v");
  return await db.query<DailyCount>(
    `select to_char(day, 'YYYY-MM-DD') as date, count(*)::int as count from (
       select distinct ${DAY("occurred_at")} as day, visitor_key from visits v where ${
      IN("occurred_at")
    }${where}
     ) d group by day order by day`,
    params,
  );
}

/**
 * Unique visitors and page views under the filters; with `until`, the last day only before that local time.
 * A visitor key is per month (docs/UNIQUE_VISITORS.md): over several months, a visitor counts once a month
 * (`approximate`).
 */
export async function filteredVisitorTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<{ uniqueVisitors: number; visits: number; approximate: boolean }> {
  const params = base(range, tz, until);
  const where = filterSql(f, "visits", params, BOUNDS, "v");
  const rows = await db.query<{ uniqueVisitors: number; visits: number; approximate: boolean }>(
    // Distinct (month, key) pairs by hashing (a subquery), not count(distinct ...), which sorts.
    `select count(*)::int as "uniqueVisitors",
            coalesce(sum(n), 0)::int as visits,
            date_trunc('month', $1::date) <> date_trunc('month', $2::date) as approximate
       from (select date_trunc('month', occurred_at at time zone $3) as m, visitor_key, count(*) as n
               from visits v where ${IN("occurred_at")}${where} group by 1, 2) t`,
    params,
  );
  return rows[0];
}

/** Plan clicks and leads under the filters; with `until`, the last day only before that local time. */
export async function filteredEventTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<{ clicks: number; conversions: number; leads: number }> {
  const params = base(range, tz, until);
  const clickWhere = filterSql(f, "clicks", params, BOUNDS, "c");
  const rows = await db.query<{ clicks: number; leads: number }>(
    `select (select count(*) from clicks c where ${IN("occurred_at")}${PLAN}${clickWhere})::int as clicks,
            (select coalesce(sum(n), 0) from (${leadRows(f, params, BOUNDS)}) r)::int as leads`,
    params,
  );
  return { clicks: rows[0].clicks, conversions: rows[0].leads, leads: rows[0].leads };
}

/** The most visited keys under the filters (visits; entries for entry_page). */
export async function filteredRanking(
  db: Queryable,
  ranking: Ranking,
  range: DayRange,
  tz: string,
  limit: number,
  f: Filters | undefined,
): Promise<RankItem[]> {
  const params = base(range, tz);
  const where = filterSql(f, "visits", params, BOUNDS, "v");
  params.push(limit);
  const key = RANKINGS[ranking].column;
  return await db.query<RankItem>(
    `select key, count(*)::int as visits from (
       select ${key} as key from visits v where ${IN("occurred_at")}${where}
     ) t where key is not null and key <> '' group by key order by visits desc, key asc limit $${params.length}`,
    params,
  );
}

/** The top keys of `range` under the filters, each with its visits in `previous` (before the range). */
export async function filteredRankingWithPrevious(
  db: Queryable,
  ranking: Ranking,
  range: DayRange,
  previous: DayRange,
  tz: string,
  limit: number,
  f: Filters,
): Promise<RankItemWithPrevious[]> {
  // One pass over previous.start..range.end: $1 is the comparison's start, $5 the range's start, $6 the
  // comparison's end.
  const params = base({ start: previous.start, end: range.end }, tz);
  const where = filterSql(f, "visits", params, BOUNDS, "v");
  params.push(limit, range.start, previous.end);
  const n = params.length;
  const key = RANKINGS[ranking].column;
  return await db.query<RankItemWithPrevious>(
    `select key, (count(*) filter (where d >= $${n - 1}::date))::int as visits,
            (count(*) filter (where d <= $${n}::date))::int as "previousVisits" from (
       select ${key} as key, ${DAY("occurred_at")} as d from visits v where ${IN("occurred_at")}${where}
     ) t where key is not null and key <> ''
     group by key having count(*) filter (where d >= $${n - 1}::date) > 0
     order by visits desc, key asc limit $${n - 2}`,
    params,
  );
}

/** Plan clicks per channel under the filters. */
export async function filteredChannelActions(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<{ channel: string; clicks: number }[]> {
  const params = base(range, tz);
  const where = filterSql(f, "clicks", params, BOUNDS, "c");
  return await db.query(
    `select channel, count(*)::int as clicks from clicks c
      where ${IN("occurred_at")} and channel is not null${PLAN}${where} group by 1`,
    params,
  );
}

/** Leads per last-touch channel under the filters. */
export async function filteredLeadsByChannel(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<{ channel: string; leads: number }[]> {
  const params = base(range, tz);
  return await db.query(
    `select last_channel as channel, sum(n)::int as leads from (${leadRows(f, params, BOUNDS)}) r
      where last_channel <> '' group by 1`,
    params,
  );
}

/** Clicks and conversions (stored leads) per UTM source under the filters. */
export async function filteredConversionBySource(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
): Promise<SourceConversion[]> {
  const params = base(range, tz);
  const clickWhere = filterSql(f, "clicks", params, BOUNDS, "c");
  return await db.query<SourceConversion>(
    `select s as "utmSource", sum(c)::int as clicks, sum(v)::int as conversions from (
       select nullif(utm_source, '') as s, count(*) as c, 0 as v from clicks c where ${
      IN("occurred_at")
    }${PLAN}${clickWhere}
        group by 1
       union all
       select nullif(utm_source, ''), 0, sum(n) from (${leadRows(f, params, BOUNDS)}) r group by 1
     ) t group by s order by clicks desc, conversions desc, "utmSource" asc nulls last`,
    params,
  );
}

/**
 * Visits, plan clicks and leads per utm_content or utm_term ("Criativos", "Palavras-chave"), under the filters.
 * Leads keep the two values (migration 00016); clicks do not, so each plan click counts under the values of
 * its session's page views on the click's local day or the day before (db/utm_detail.ts rolls up the same
 * per day). Read from the raw rows: days whose raw rows are purged count nothing.
 */
export async function utmDetailConversions(
  db: Queryable,
  column: UtmDetailColumn,
  range: DayRange,
  tz: string,
  limit: number | null,
  f: Filters | undefined,
): Promise<UtmDetailRow[]> {
  const params = base(range, tz);
  const visitWhere = filterSql(f, "visits", params, BOUNDS, "v");
  const clickWhere = filterSql(f, "clicks", params, BOUNDS, "c");
  const leadWhere = filterSql(f, "leads", params, BOUNDS, "l");
  params.push(limit);
  const clickDay = DAY("c.occurred_at");
  // One pass over the period's page views with a value (grouped by session, value and day, hashed, not
  // sorted): the period's views per value, and which values each session had on each day for its clicks.
  return await db.query(
    `with sk as (
       select v.session_id, v.${column} as key, ${DAY("v.occurred_at")} as d,
              count(*) filter (where v.occurred_at >= ${LO}) as n from visits v
        where v.occurred_at >= (($1::date - 1)::timestamp at time zone $3) and v.occurred_at < ${HI}
          and v.${column} is not null and v.${column} <> ''${visitWhere}
        group by 1, 2, 3)
     select key, sum(n)::int as visits, sum(c)::int as clicks, sum(l)::int as leads from (
       select key, sum(n) as n, 0 as c, 0 as l from sk group by 1
       union all
       select key, 0, count(*), 0 from (
         select distinct c.id, sk.key from clicks c
           join sk on sk.session_id = c.session_id and sk.d between ${clickDay} - 1 and ${clickDay}
          where ${IN("c.occurred_at")}${PLAN} and c.session_id <> ''${clickWhere}) x group by 1
       union all
       select l.${column}, 0, 0, count(*) from leads l
        where ${IN("l.submitted_at")} and l.${column} is not null and l.${column} <> ''${leadWhere} group by 1
     ) t group by key having sum(n) > 0 or sum(l) > 0
     order by visits desc, leads desc, key asc limit $${params.length}`,
    params,
  );
}

/** A period's WhatsApp clicks under the filters: per day, per channel, per UTM source and per page. */
export interface FilteredWhatsapp {
  daily: DailyCount[];
  byChannel: { channel: string; whatsappClicks: number }[];
  bySource: { utmSource: string | null; whatsappClicks: number }[];
  pages: RankItem[];
}

/** WhatsApp clicks under the filters, every breakdown in one pass over the period's raw clicks. */
export async function filteredWhatsapp(
  db: Queryable,
  range: DayRange,
  tz: string,
  f: Filters,
  pageLimit: number,
): Promise<FilteredWhatsapp> {
  const params = base(range, tz);
  const where = filterSql(f, "clicks", params, BOUNDS, "c");
  // grouping(...) tells which of the four breakdowns a row belongs to (0: grouped by that column).
  const rows = await db.query<
    { g: number; date: string; channel: string | null; s: string | null; page: string; n: number }
  >(
    `select grouping(d, channel, s, source)::int as g, to_char(d, 'YYYY-MM-DD') as date, channel, s,
            source as page, count(*)::int as n
       from (select ${DAY("occurred_at")} as d, channel, nullif(utm_source, '') as s, source from clicks c
              where ${IN("occurred_at")} and c.kind = 'whatsapp'${where}) t
      group by grouping sets ((d), (channel), (s), (source))`,
    params,
  );
  const out: FilteredWhatsapp = { daily: [], byChannel: [], bySource: [], pages: [] };
  for (const r of rows) {
    if (r.g === 0b0111) out.daily.push({ date: r.date, count: r.n });
    else if (r.g === 0b1011 && r.channel !== null) {
      out.byChannel.push({ channel: r.channel, whatsappClicks: r.n });
    } else if (r.g === 0b1101) out.bySource.push({ utmSource: r.s, whatsappClicks: r.n });
    else if (r.g === 0b1110 && r.page !== "") out.pages.push({ key: r.page, visits: r.n });
  }
  return inOrder(out, pageLimit);
}

/** The WhatsApp breakdowns as the card shows them: days in order, the `pageLimit` most clicked pages. */
export function inOrder(out: FilteredWhatsapp, pageLimit: number): FilteredWhatsapp {
  out.daily.sort((a, b) => (a.date < b.date ? -1 : 1));
  out.pages.sort((a, b) => b.visits - a.visits || (a.key < b.key ? -1 : 1));
  out.pages = out.pages.slice(0, pageLimit);
  return out;
}

/** WhatsApp clicks under the filters; with `until`, the last day only before that local time. */
export async function filteredWhatsappTotal(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<number> {
  const params = base(range, tz, until);
  const where = filterSql(f, "clicks", params, BOUNDS, "c");
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from clicks c where ${IN("occurred_at")} and c.kind = 'whatsapp'${where}`,
    params,
  );
  return rows[0].n;
}

// A page view without a session id (browser storage disabled) is a visit of its own (as in db/engagement.ts).
const SESSION_OF = (a: string) => `coalesce(nullif(${a}.session_id, ''), 'row:' || ${a}.id::text)`;

/**
 * Visits (sessions), bounces, page views and visible time under the filters; with `until`, the last day only
 * before that local time. The filters select page views; a visit is a session with a selected view on a day,
 * and it bounces when that session saw one page that day (any page) and clicked nothing. Visible time is the
 * selected sessions' (with a page filter, on that page only).
 */
export async function filteredEngagementTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null,
  f: Filters,
): Promise<EngagementTotals> {
  const params = base(range, tz, until);
  const where = filterSql(f, "visits", params, BOUNDS, "v");
  params.push(f.page ?? null);
  const page = `$${params.length}::text`;
  const rows = await db.query<EngagementTotals>(
    `with fv as (
       select ${DAY("v.occurred_at")} as day, ${SESSION_OF("v")} as sid, count(*) as n from visits v
        where ${IN("v.occurred_at")}${where} group by 1, 2),
     av as (
       select ${DAY("a.occurred_at")} as day, a.session_id as sid, count(*) as n from visits a
        where ${IN("a.occurred_at")} and a.session_id in (select sid from fv) group by 1, 2),
     rc as (
       select distinct ${DAY("c.occurred_at")} as day, c.session_id as sid from clicks c
        where ${IN("c.occurred_at")} and c.session_id in (select sid from fv)),
     s as (
       select count(*) as sessions, count(*) filter (where coalesce(av.n, fv.n) = 1 and rc.sid is null) as bounces,
              coalesce(sum(fv.n), 0) as views
         from fv left join av on av.day = fv.day and av.sid = fv.sid left join rc on rc.day = fv.day and rc.sid = fv.sid)
     select sessions::int, bounces::int, views::int as "pageViews",
            (select coalesce(sum(e.engaged_ms), 0) from engagements e
              where ${IN("e.occurred_at")} and (${
      DAY("e.occurred_at")
    }, e.session_id) in (select day, sid from fv)
                and (${page} is null or e.source = ${page}))::float8 as "engagedMs"
       from s`,
    params,
  );
  return rows[0];
}

/**
 * "Tempo na página" under the filters: the selected page views per page, with the visible time there of the
 * sessions that had such a view on the same local day (a visit is a session's day, as for the engagement
 * totals). The `limit` most viewed pages; all with null.
 */
export async function filteredPageEngagement(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number | null,
  f: Filters,
): Promise<PageEngagement[]> {
  const params = base(range, tz);
  const where = filterSql(f, "visits", params, BOUNDS, "v");
  params.push(limit);
  return await db.query<PageEngagement>(
    `with fv as (
       select ${DAY("v.occurred_at")} as day, v.source as page, v.session_id as sid from visits v
        where ${IN("v.occurred_at")}${where}),
     pv as (select page, count(*) as views from fv group by 1),
     ms as (
       select e.source as page, sum(e.engaged_ms) as ms from engagements e
        where ${IN("e.occurred_at")}
          and (${
      DAY("e.occurred_at")
    }, e.session_id, e.source) in (select day, sid, page from fv where sid <> '')
        group by 1)
     select pv.page, pv.views::int as views, coalesce(ms.ms, 0)::float8 as "engagedMs"
       from pv left join ms on ms.page = pv.page
      order by views desc, pv.page asc limit $${params.length}`,
    params,
  );
}
