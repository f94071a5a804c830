// Who the visitors are (docs/AUDIENCE.md): page views, plan clicks and leads per device class, browser,
// operating system, country and Brazilian state (migrations/00020), each with the days it is compared with;
// and leads per state of their WhatsApp number. Unfiltered, page views and clicks come from the roll-ups
// (daily_audience) plus the raw rows after the watermark, like every other report (db/dashboard_queries.ts SPLIT);
// filtered, from the raw rows (db/filtered.ts). Leads likewise: unfiltered from their roll-up per value
// (daily_lead_dims, db/lead_totals.ts) and the leads table after the watermark; filtered, from the leads table.
import { AUDIENCE_COLUMNS, type AudienceDimension } from "../shared/audience.ts";
import { type Filters, noFilters } from "../shared/filters.ts";
import type { Queryable } from "./client.ts";
import { BOUNDS, type DayRange, RAW, ROLLED, SPLIT } from "./dashboard_queries.ts";
import { filterSql, RANGE_BOUNDS } from "./filtered.ts";
import { LOCAL_DAY, SPAN } from "./rollups.ts";
import { LEAD_DIMS_ROLLED, LEAD_DIMS_SPLIT, leadDimRows, LEADS_RAW_DIMS } from "./lead_totals.ts";

/** One value of a dimension ('' for events without it) in the period and in the comparison days. */
export interface AudienceCount {
  key: string;
  visits: number;
  clicks: number;
  leads: number;
  previousVisits: number;
  previousClicks: number;
  previousLeads: number;
}

/**
 * Rewrites daily_audience from `from` on, up to `until`: page views and plan clicks per value of each
 * dimension ('' for none). One pass over each table's raw rows.
 */
export async function rollUpAudience(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  await db.query("delete from daily_audience where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into daily_audience (day, dimension, key, visits, clicks)
       select day, dimension, coalesce(key, ''), sum(v)::int, sum(c)::int from (
         select ${LOCAL_DAY} as day, device, browser, os, country, region, count(*) as v, 0 as c
           from visits where ${SPAN} group by 1, 2, 3, 4, 5, 6
         union all
         select ${LOCAL_DAY}, device, browser, os, country, region, 0, count(*)
           from clicks where ${SPAN} and kind = 'plan' group by 1, 2, 3, 4, 5, 6) t,
         lateral (values ('device', device), ('browser', browser), ('os', os), ('country', country),
                         ('region', region)) as d(dimension, key)
        group by day, dimension, coalesce(key, '')
       on conflict (day, dimension, key) do nothing
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

// $1 the comparison's first day, $2 the period's last day, $3 time zone, $4 the period's first day, $5 the
// comparison's last day, $6 dimension: one pass over the days from $1 to $2.
const SUMS = `coalesce(sum(v) filter (where d >= $4::date), 0)::int as visits,
       coalesce(sum(c) filter (where d >= $4::date), 0)::int as clicks,
       coalesce(sum(l) filter (where d >= $4::date), 0)::int as leads,
       coalesce(sum(v) filter (where d <= $5::date), 0)::int as "previousVisits",
       coalesce(sum(c) filter (where d <= $5::date), 0)::int as "previousClicks",
       coalesce(sum(l) filter (where d <= $5::date), 0)::int as "previousLeads"`;
const HAVING = `having sum(v) filter (where d >= $4::date) > 0 or sum(c) filter (where d >= $4::date) > 0
   or sum(l) filter (where d >= $4::date) > 0`;
const ORDER = "order by visits desc, clicks desc, leads desc, key asc";

/**
 * Page views, plan clicks and leads per value of `dimension` in `range` and in `previous` (days before it),
 * every value with anything in the range, most visited first.
 */
export async function audienceCounts(
  db: Queryable,
  dimension: AudienceDimension,
  range: DayRange,
  previous: DayRange,
  tz: string,
  filters?: Filters,
): Promise<AudienceCount[]> {
  const column = AUDIENCE_COLUMNS[dimension];
  const params: unknown[] = [previous.start, range.end, tz, range.start, previous.end];
  if (noFilters(filters)) {
    params.push(dimension);
    return await db.query<AudienceCount>(
      `with ${SPLIT}, ${LEAD_DIMS_SPLIT}
       select key, ${SUMS} from (
         select coalesce(${column}, '') as key, ${LOCAL_DAY} as d, count(*) as v, 0 as c, 0 as l from visits, b
          where ${RAW("occurred_at")} group by 1, 2
         union all
         select coalesce(${column}, ''), ${LOCAL_DAY}, 0, count(*), 0 from clicks, b
          where ${RAW("occurred_at")} and kind = 'plan' group by 1, 2
         union all
         select key, day, visits, clicks, 0 from daily_audience, b where ${ROLLED} and dimension = $6
         union all
         select key, day, 0, 0, leads from (${leadDimRows(dimension)}) l
       ) t group by key ${HAVING} ${ORDER}`,
      params,
    );
  }
  const visitWhere = filterSql(filters, "visits", params, RANGE_BOUNDS, "v");
  const clickWhere = filterSql(filters, "clicks", params, RANGE_BOUNDS, "c");
  const leadWhere = filterSql(filters, "leads", params, RANGE_BOUNDS, "l");
  return await db.query<AudienceCount>(
    `select key, ${SUMS} from (
       select coalesce(v.${column}, '') as key, (v.occurred_at at time zone $3)::date as d, count(*) as v, 0 as c,
              0 as l
         from visits v where ${BOUNDS("v.occurred_at")}${visitWhere} group by 1, 2
       union all
       select coalesce(c.${column}, ''), (c.occurred_at at time zone $3)::date, 0, count(*), 0 from clicks c
        where ${BOUNDS("c.occurred_at")} and c.kind = 'plan'${clickWhere} group by 1, 2
       union all
       select coalesce(l.${column}, ''), (l.submitted_at at time zone $3)::date, 0, 0, count(*) from leads l
        where ${BOUNDS("l.submitted_at")}${leadWhere} group by 1, 2
     ) t group by key ${HAVING} ${ORDER}`,
    params,
  );
}

/** One row of leadStateCounts. */
export interface LeadStateCount {
  /** The stored state ('' for a foreign or unreadable number); null for a lead whose state is not stored. */
  state: string | null;
  whatsapp: string | null;
  page: string | null;
  current: boolean;
  leads: number;
}

/**
 * Leads per state of their WhatsApp number (shared/br_states.ts) in `range` (`current`) and, when given, in
 * `previous` (days before it), under the filters. A lead stored before its state was (migrations/00023) comes
 * alone, with its number and page, for the caller to read its state.
 */
export async function leadStateCounts(
  db: Queryable,
  range: DayRange,
  previous: DayRange | null,
  tz: string,
  filters?: Filters,
): Promise<LeadStateCount[]> {
  // $1 first day read, $2 the period's last day, $3 time zone, $4 the period's first day, $5 the last day
  // compared with (the day before $4 when there is no comparison: nothing between).
  const params: unknown[] = [
    previous?.start ?? range.start,
    range.end,
    tz,
    range.start,
    previous?.end ?? range.start,
  ];
  const current = "(l.submitted_at >= ($4::date::timestamp at time zone $3))";
  const compared = `(${current} or l.submitted_at < (($5::date + 1)::timestamp at time zone $3))`;
  // Unfiltered, the stored states of the days up to the watermark come from the roll-up and only the leads
  // after it from the table; filtered, every lead of the days from the table.
  const rolled = noFilters(filters);
  const [head, from, days] = rolled
    ? [
      `with ${SPLIT}, ${LEAD_DIMS_SPLIT}
       select key as state, null as whatsapp, null as page, day >= $4::date as current, sum(leads)::int as leads
         from daily_lead_dims, ldb
        where ${LEAD_DIMS_ROLLED} and dimension = 'whatsapp_state'
          and (day >= $4::date or day <= $5::date)
        group by 1, 4
       union all `,
      "leads l, ldb",
      `${LEADS_RAW_DIMS} and ${compared}`,
    ]
    : [
      "",
      "leads l",
      `${BOUNDS("l.submitted_at")}${filterSql(filters, "leads", params, RANGE_BOUNDS, "l")} and ${compared}`,
    ];
  return await db.query<LeadStateCount>(
    `${head}select l.whatsapp_state as state, null as whatsapp, null as page, ${current} as current,
            count(*)::int as leads
       from ${from} where ${days} and l.whatsapp_state is not null
      group by 1, 4
     union all
     select null, l.whatsapp, l.page, ${current}, 1 from ${from} where ${days} and l.whatsapp_state is null`,
    params,
  );
}
