// Dashboard aggregations. Days are calendar days in the analytics time zone: a range [start, end] is the
// half-open interval from start's local midnight to the local midnight after end, so the timestamp indexes
// are used; grouping converts each instant to its local date.
//
// Days older than RETENTION_DAYS have no raw rows any more, only roll-ups (migrations/00005_daily_rollups.sql);
// a day is either raw or rolled up, never both, so every count adds the roll-ups of the range to the raw
// rows. Over rolled-up days, unique visitors of a period are the sum of the daily uniques.
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
// Roll-up rows of the range (their `day` is already a local date).
const ROLLUP_DAYS = "day between $1::date and $2::date";
const ROLLUP_DAY = "to_char(day, 'YYYY-MM-DD')";

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
    `select date, sum(n)::int as count from (
       select ${LOCAL_DAY("occurred_at")} as date, count(*) as n from clicks where ${
      BOUNDS("occurred_at")
    } group by 1
       union all
       select ${ROLLUP_DAY}, clicks from daily_totals where ${ROLLUP_DAYS} and clicks > 0
     ) t group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

/** Distinct visitors per local day in the range (days without visits are absent). */
export async function dailyUniqueVisitors(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  // distinct in a subquery lets the planner hash instead of sorting for count(distinct).
  return await db.query<DailyCount>(
    `select date, sum(n)::int as count from (
       select to_char(day, 'YYYY-MM-DD') as date, count(*) as n from (
         select distinct (occurred_at at time zone $3)::date as day, visitor_key from visits
          where ${BOUNDS("occurred_at")}
       ) d group by day
       union all
       select ${ROLLUP_DAY}, unique_visitors from daily_totals where ${ROLLUP_DAYS} and visits > 0
     ) t group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

export interface VisitorTotals {
  /** Distinct visitor keys over the raw days of the period, plus the daily uniques of rolled-up days. */
  uniqueVisitors: number;
  visits: number;
}

/** Unique visitors and page views of a period (exact over raw days; see the header for rolled-up days). */
export async function visitorTotals(db: Queryable, range: DayRange, tz: string): Promise<VisitorTotals> {
  const rows = await db.query<VisitorTotals>(
    `with raw as (
       select count(distinct visitor_key) as u, count(*) as v from visits where ${BOUNDS("occurred_at")}),
     r as (
       select coalesce(sum(unique_visitors), 0) as u, coalesce(sum(visits), 0) as v
         from daily_totals where ${ROLLUP_DAYS})
     select (raw.u + r.u)::int as "uniqueVisitors", (raw.v + r.v)::int as visits from raw, r`,
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
    `with r as (
       select coalesce(sum(clicks), 0) as c, coalesce(sum(conversions), 0) as k
         from daily_totals where ${ROLLUP_DAYS})
     select
       ((select count(*) from clicks where ${BOUNDS("occurred_at")}) + r.c)::int as clicks,
       ((select count(*) from conversions where ${BOUNDS("occurred_at")}) + r.k)::int as conversions,
       (select count(*) from leads where ${BOUNDS("submitted_at")})::int as leads
     from r`,
    [range.start, range.end, tz],
  );
  return rows[0];
}

/** Clicks and conversions of all time (the stats call without dates). */
export async function allTimeClicksAndConversions(
  db: Queryable,
): Promise<{ clicks: number; conversions: number }> {
  const rows = await db.query<{ clicks: number; conversions: number }>(
    `select ((select count(*) from clicks) + (select coalesce(sum(clicks), 0) from daily_totals))::int as clicks,
            ((select count(*) from conversions) + (select coalesce(sum(conversions), 0) from daily_totals))::int
              as conversions`,
  );
  return rows[0];
}

export interface RankItem {
  key: string;
  visits: number;
}

// Ties are broken by the key so the order is stable from one request to the next.
const RANKING = (column: string, dimension: string) =>
  `select key, sum(n)::int as visits from (
     select ${column} as key, count(*) as n from visits
      where ${BOUNDS("occurred_at")} and ${column} is not null and ${column} <> '' group by 1
     union all
     select key, visits from daily_visit_ranks where ${ROLLUP_DAYS} and dimension = '${dimension}'
   ) t group by key order by visits desc, key asc limit $4`;

/** Most visited UTM sources in the range. */
export async function topUtmSources(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("utm_source", "utm_source"), [range.start, range.end, tz, limit]);
}

/** Most visited UTM campaigns in the range. */
export async function topUtmCampaigns(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("utm_campaign", "utm_campaign"), [
    range.start,
    range.end,
    tz,
    limit,
  ]);
}

/** Most visited pages (path plus query, as tracked) in the range. */
export async function topPages(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(RANKING("source", "page"), [range.start, range.end, tz, limit]);
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
       union all
       select nullif(utm_source, ''), clicks, conversions from daily_source_actions where ${ROLLUP_DAYS}
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
    // Phone numbers are typed with punctuation; translate() strips the usual marks far faster than a regexp.
    if (digits.length >= 3) {
      params.push("%" + digits + "%");
      phone = ` or translate(whatsapp, ' ()+-./', '') like $${params.length}`;
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
