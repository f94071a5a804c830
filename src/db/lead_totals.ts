// Leads per local day, UTM source and last-touch channel (migrations/00036_daily_lead_totals.sql, docs/ANALYTICS.md
// "Leads"). The headline, the daily chart, the channels table, the conversion by UTM source and the lead list's
// total count the leads before the roll-up watermark from `daily_lead_totals` and only those after it from the
// leads table, like the other figures (the SPLIT of dashboard_queries.ts): a month of leads is a few hundred rows
// to add instead of every lead's row to fetch. Leads are never purged, so the roll-up covers every day with a
// lead. The roll-up job writes it (db/rollups.ts rollUpLeadTotals); a lead stored late, behind the watermark, is
// added to it and an erased lead taken out of it in the transaction that stores or erases it
// (changeRolledLeads, below).
import type { Queryable } from "./client.ts";
import { ANALYTICS_LOCK, waitForJobLock } from "./job_locks.ts";

/**
 * After the range split (`b`, dashboard_queries.ts SPLIT or splitWith, which bind $1 start, $3 time zone),
 * the CTE `lb`: `b` and whether the roll-up can be read (its backfill is done).
 */
export const LEAD_SPLIT = `lb as (
    select b.*, not exists (select 1 from daily_lead_totals_backfill) as rolled from b)`;
/** The roll-up rows of the range up to the watermark (needs lb in the from list). */
export const LEADS_ROLLED = "lb.rolled and day between lb.s and lb.re";
/** The leads of the range after the watermark, or all of them before the backfill (needs lb). */
export const LEADS_RAW = leadsRaw("lb");
/** The number of leads of the range (needs lb): the roll-up's up to the watermark, the table's after it. */
export const LEAD_COUNT = `((select count(*) from leads, lb where ${LEADS_RAW})
    + (select coalesce(sum(leads), 0) from daily_lead_totals, lb where ${LEADS_ROLLED}))`;

/**
 * The leads' own columns that panels below the fold count them by (migrations/00039): per local day and value,
 * `daily_lead_dims` keeps the leads, read like daily_lead_totals (LEAD_DIMS_SPLIT). A lead has its WhatsApp
 * state before its day is rolled up: it is stored with it, and the run fills the older rows first
 * (db/leads.ts fillLeadStates).
 */
export const LEAD_DIMS = [
  "device",
  "browser",
  "os",
  "country",
  "region",
  "whatsapp_state",
  "utm_content",
  "utm_term",
] as const;
/** A dimension of daily_lead_dims: the name of the leads' column it counts by. */
export type LeadDim = typeof LEAD_DIMS[number];
/** Each lead's value in each dimension, for a lateral join over `leads` (aliased `l`). */
export const LEAD_DIM_VALUES = LEAD_DIMS.map((dim) => `('${dim}', l.${dim})`).join(", ");

/** After the range split (`b`): the CTE `ldb`, b and whether daily_lead_dims can be read (backfill done). */
export const LEAD_DIMS_SPLIT = `ldb as (
    select b.*, not exists (select 1 from daily_lead_dims_backfill) as rolled from b)`;

/** daily_lead_dims' rows of the range up to the watermark (needs ldb in the from list). */
export const LEAD_DIMS_ROLLED = "ldb.rolled and day between ldb.s and ldb.re";

/** The leads of the range after the watermark, or all of them before daily_lead_dims' backfill (needs ldb). */
export const LEADS_RAW_DIMS = leadsRaw("ldb");

/**
 * Leads per value of one dimension and local day over the range, as rows (key, day, leads), '' for none: the
 * roll-up's up to the watermark and the leads table's after it (needs ldb; $1 the first day, $3 the time zone).
 */
export function leadDimRows(dimension: LeadDim): string {
  return `select key, day, leads from daily_lead_dims, ldb
           where ${LEAD_DIMS_ROLLED} and dimension = '${dimension}'
          union all
          select coalesce(${dimension}, ''), (submitted_at at time zone $3)::date, count(*) from leads, ldb
           where ${LEADS_RAW_DIMS} group by 1, 2`;
}

/** The leads of the range after the watermark, or all of them before the backfill (needs `split`). */
function leadsRaw(split: string): string {
  return `submitted_at >= case when ${split}.rolled then ${split}.raw_from
                               else $1::date::timestamp at time zone $3 end
          and submitted_at < ${split}.raw_to`;
}

/**
 * Adds leads to the roll-ups (`change` 1) or takes them out (-1), by id: those submitted before the watermark,
 * whose days the roll-ups already count. Two kinds: a lead the browser's outbox sent late, stored with its
 * submission time (services/leads.ts submissionTime), which can be behind the watermark (call after storing
 * it); and an erased lead (db/lgpd.ts, call before deleting it). Waits for a roll-up run to end and holds the
 * roll-up lock until the transaction ends (db/job_locks.ts), so that no run rewrites these days or moves the
 * watermark in between.
 */
export async function changeRolledLeads(db: Queryable, ids: number[], change: 1 | -1, tz: string) {
  if (!ids.length) return;
  await waitForJobLock(db, ANALYTICS_LOCK);
  await db.query(
    `with l as (
       select l.*, (l.submitted_at at time zone $2)::date as day from leads l
        where l.id = any($1::bigint[])
          and l.submitted_at < (select coalesce(r.until, (r.through + 1)::timestamp at time zone $2) from rollup_state r)),
     totals as (
       insert into daily_lead_totals (day, utm_source, last_channel, leads)
       select day, coalesce(utm_source, ''), coalesce(last_channel, ''), count(*)::int * $3 from l group by 1, 2, 3
       on conflict (day, utm_source, last_channel) do update set leads = daily_lead_totals.leads + excluded.leads)
     insert into daily_lead_dims (day, dimension, key, leads)
     select l.day, d.dimension, coalesce(d.key, ''), count(*)::int * $3
       from l, lateral (values ${LEAD_DIM_VALUES}) as d(dimension, key) group by 1, 2, 3
     on conflict (day, dimension, key) do update set leads = daily_lead_dims.leads + excluded.leads`,
    [ids, tz, change],
  );
  if (change < 0) {
    await db.query("delete from daily_lead_totals where leads <= 0");
    await db.query("delete from daily_lead_dims where leads <= 0");
  }
}
