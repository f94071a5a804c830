// Dashboard aggregations. Days are calendar days in the analytics time zone: a range [start, end] is the
// half-open interval from start's local midnight to the local midnight after end, so the timestamp indexes
// are used; grouping converts each instant to its local date.
import type { Queryable } from "./client.ts";

/** Whole local days, yyyy-MM-dd, both inclusive. */
export interface DayRange {
  start: string;
  end: string;
}

export interface DailyCount {
  date: string;
  count: number;
}

// $1 start date, $2 end date, $3 time zone.
const BOUNDS = (column: string) =>
  `${column} >= ($1::date::timestamp at time zone $3) and ${column} < (($2::date + 1)::timestamp at time zone $3)`;
const LOCAL_DAY = (column: string) => `to_char((${column} at time zone $3)::date, 'YYYY-MM-DD')`;

/** Leads per local day in the range (days without leads are absent). */
export async function dailyLeads(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  return await db.query<DailyCount>(
    `select ${LOCAL_DAY("submitted_at")} as date, count(*)::int as count
       from leads where ${BOUNDS("submitted_at")} group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

/** Plan-button clicks per local day in the range (days without clicks are absent). */
export async function dailyClicks(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  return await db.query<DailyCount>(
    `select ${LOCAL_DAY("occurred_at")} as date, count(*)::int as count
       from clicks where ${BOUNDS("occurred_at")} group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

/** Distinct visitors per local day in the range (days without visits are absent). */
export async function dailyUniqueVisitors(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  // distinct in a subquery lets the planner hash instead of sorting for count(distinct).
  return await db.query<DailyCount>(
    `select to_char(day, 'YYYY-MM-DD') as date, count(*)::int as count from (
       select distinct (occurred_at at time zone $3)::date as day, visitor_key from visits
        where ${BOUNDS("occurred_at")}
     ) d group by day order by day`,
    [range.start, range.end, tz],
  );
}

export interface VisitorTotals {
  /** Distinct visitor keys over the whole period (not a sum of days). */
  uniqueVisitors: number;
  visits: number;
}

/** Exact unique visitors and page views of a period. */
export async function visitorTotals(db: Queryable, range: DayRange, tz: string): Promise<VisitorTotals> {
  const rows = await db.query<VisitorTotals>(
    `select count(distinct visitor_key)::int as "uniqueVisitors", count(*)::int as visits
       from visits where ${BOUNDS("occurred_at")}`,
    [range.start, range.end, tz],
  );
  return rows[0];
}

export interface EventTotals {
  clicks: number;
  conversions: number;
  leads: number;
}

/** Clicks, conversions and leads of a period in one round trip. */
export async function eventTotals(db: Queryable, range: DayRange, tz: string): Promise<EventTotals> {
  const rows = await db.query<EventTotals>(
    `select
       (select count(*) from clicks where ${BOUNDS("occurred_at")})::int as clicks,
       (select count(*) from conversions where ${BOUNDS("occurred_at")})::int as conversions,
       (select count(*) from leads where ${BOUNDS("submitted_at")})::int as leads`,
    [range.start, range.end, tz],
  );
  return rows[0];
}

/** Clicks and conversions of all time (the stats call without dates). */
export async function allTimeClicksAndConversions(
  db: Queryable,
): Promise<{ clicks: number; conversions: number }> {
  const rows = await db.query<{ clicks: number; conversions: number }>(
    `select (select count(*) from clicks)::int as clicks, (select count(*) from conversions)::int as conversions`,
  );
  return rows[0];
}

export interface RankItem {
  key: string;
  visits: number;
}

// Ties are broken by the key so the order is stable from one request to the next.
const RANKING = (column: string) =>
  `select ${column} as key, count(*)::int as visits from visits
    where ${BOUNDS("occurred_at")} and ${column} is not null and ${column} <> ''
    group by 1 order by visits desc, key asc limit $4`;

/** Most visited UTM sources in the range. */
export async function topUtmSources(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("utm_source"), [range.start, range.end, tz, limit]);
}

/** Most visited UTM campaigns in the range. */
export async function topUtmCampaigns(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("utm_campaign"), [range.start, range.end, tz, limit]);
}

/** Most visited pages (path plus query, as tracked) in the range. */
export async function topPages(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("source"), [range.start, range.end, tz, limit]);
}

export interface SourceConversion {
  utmSource: string | null;
  clicks: number;
  conversions: number;
}

/** Clicks and conversions per UTM source in the range (null: no UTM source). */
export async function conversionBySource(
  db: Queryable,
  range: DayRange,
  tz: string,
): Promise<SourceConversion[]> {
  return await db.query<SourceConversion>(
    `select s as "utmSource", sum(c)::int as clicks, sum(v)::int as conversions from (
       select nullif(utm_source, '') as s, 1 as c, 0 as v from clicks where ${BOUNDS("occurred_at")}
       union all
       select nullif(utm_source, '') as s, 0 as c, 1 as v from conversions where ${BOUNDS("occurred_at")}
     ) t group by s
      order by clicks desc, conversions desc, "utmSource" asc nulls last`,
    [range.start, range.end, tz],
  );
}

export interface LeadRow {
  id: number;
  name: string;
  email: string;
  whatsapp: string;
  plan: string;
  planLabel: string;
  submittedAt: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
}

export interface LeadFilter {
  range?: DayRange;
  /** Matches name, e-mail or WhatsApp (digits compared without punctuation). */
  q?: string;
  limit?: number;
  offset?: number;
}

function leadWhere(filter: LeadFilter, tz: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  if (filter.range) {
    params.push(filter.range.start, filter.range.end, tz);
    parts.push(BOUNDS("submitted_at"));
  }
  if (filter.q) {
    const like = "%" + filter.q.replace(/[\\%_]/g, (m) => "\\" + m) + "%";
    params.push(like);
    const n = params.length;
    const digits = filter.q.replace(/\D/g, "");
    let phone = "";
    if (digits.length >= 3) {
      params.push("%" + digits + "%");
      phone = ` or regexp_replace(whatsapp, '\\D', '', 'g') like $${params.length}`;
    }
    parts.push(`(name ilike $${n} or email ilike $${n} or whatsapp ilike $${n}${phone})`);
  }
  return { sql: parts.length ? "where " + parts.join(" and ") : "", params };
}

/** Leads, newest first, optionally filtered and paginated. */
export async function listLeads(db: Queryable, filter: LeadFilter, tz: string): Promise<LeadRow[]> {
  const { sql, params } = leadWhere(filter, tz);
  let page = "";
  if (filter.limit !== undefined) {
    params.push(filter.limit, filter.offset ?? 0);
    page = ` limit $${params.length - 1} offset $${params.length}`;
  }
  return await db.query<LeadRow>(
    `select id, name, email, whatsapp, plan, plan_label as "planLabel",
            to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "submittedAt",
            utm_source as "utmSource", utm_campaign as "utmCampaign", utm_medium as "utmMedium"
       from leads ${sql}
      order by submitted_at desc, id desc${page}`,
    params,
  );
}

/** How many leads match a filter (pagination ignored). */
export async function countLeads(db: Queryable, filter: LeadFilter, tz: string): Promise<number> {
  const { sql, params } = leadWhere(filter, tz);
  const rows = await db.query<{ n: number }>(`select count(*)::int as n from leads ${sql}`, params);
  return rows[0].n;
}
