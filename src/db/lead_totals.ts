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
export const LEADS_RAW = `submitted_at >= case when lb.rolled then lb.raw_from
                                               else $1::date::timestamp at time zone $3 end
                     and submitted_at < lb.raw_to`;
/** The number of leads of the range (needs lb): the roll-up's up to the watermark, the table's after it. */
export const LEAD_COUNT = `((select count(*) from leads, lb where ${LEADS_RAW})
    + (select coalesce(sum(leads), 0) from daily_lead_totals, lb where ${LEADS_ROLLED}))`;

/** What the roll-up keeps of a lead. */
export interface RolledLead {
  submittedAt: Date;
  utmSource: string | null;
  lastChannel: string | null;
}

/**
 * Adds leads to the roll-up (`change` 1) or takes them out (-1): those submitted before the watermark, whose
 * days it already counts. Two kinds: a lead the browser's outbox sent late, stored with its submission time
 * (services/leads.ts submissionTime), which can be behind the watermark; and an erased lead (db/lgpd.ts). Waits
 * for a roll-up run to end and holds the roll-up lock until the transaction ends (db/job_locks.ts), so that no
 * run rewrites these days or moves the watermark in between.
 */
export async function changeRolledLeads(db: Queryable, leads: RolledLead[], change: 1 | -1, tz: string) {
  if (!leads.length) return;
  await waitForJobLock(db, ANALYTICS_LOCK);
  await db.query(
    `insert into daily_lead_totals (day, utm_source, last_channel, leads)
     select (e.at at time zone $4)::date, coalesce(e.source, ''), coalesce(e.channel, ''), count(*)::int * $5
       from unnest($1::timestamptz[], $2::text[], $3::text[]) as e(at, source, channel)
      where e.at < (select coalesce(r.until, (r.through + 1)::timestamp at time zone $4) from rollup_state r)
      group by 1, 2, 3
     on conflict (day, utm_source, last_channel) do update set leads = daily_lead_totals.leads + excluded.leads`,
    [
      leads.map((l) => new Date(l.submittedAt).toISOString()),
      leads.map((l) => l.utmSource),
      leads.map((l) => l.lastChannel),
      tz,
      change,
    ],
  );
  if (change < 0) await db.query("delete from daily_lead_totals where leads <= 0");
}
