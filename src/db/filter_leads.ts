// The leads' session keys added up (migrations/00037_daily_filter_leads.sql, docs/ANALYTICS.md "Filters"). Under
// one filter answered through the session (the page, UTM content, UTM term, entry page), a lead counts when its
// session key says so (db/session_keys.ts): looking up every lead of a month by its keys cost 60 to 110 ms a
// report on the home page at 10,000,000 visits, five reports per load. The keys' days are final, so their leads
// add up: `daily_filter_leads` keeps them per filter, value, day, UTM source and last-touch channel, and a report
// reads those rows for the days before the keys' end and the leads after it one by one (db/filtered.ts
// leadRows). The rows change with the keys, and only with them: the roll-up job rewrites both
// (rollUpFilterLeads, after rollUpSessionKeys), a lead stored late gets both (keyLateLead), an erased lead
// leaves both (forgetLeadKeys).
import type { Queryable } from "./client.ts";
import { dayStart, KEYS_UNTIL, SAME_SESSION_DAYS, sessionViewValues } from "./session_keys.ts";

/** The rows of the lead keys of `keys` (a CTE or table of session_keys rows) added up, with their leads'. */
const SUMMED_KEYS = (keys: string) =>
  `select k.filter, k.value, k.day, coalesce(l.utm_source, ''), coalesce(l.last_channel, ''), count(*)::int
     from ${keys} k join leads l on l.id = k.id
    where k.event = 'lead'
    group by 1, 2, 3, 4, 5`;

/** Rewrites daily_filter_leads from `from` on, from the session keys just written (rollUpSessionKeys). */
export async function rollUpFilterLeads(db: Queryable, from: string): Promise<void> {
  await db.query("delete from daily_filter_leads where day >= $1::date", [from]);
  await db.query(
    `insert into daily_filter_leads (filter, value, day, utm_source, last_channel, leads)
     ${SUMMED_KEYS("(select * from session_keys where event = 'lead' and day >= $1::date)")}`,
    [from],
  );
}

/**
 * A lead the browser's outbox sent late, stored behind the keys' end (its day's keys are written): writes its
 * keys, as the roll-up job would have, and adds it to daily_filter_leads. Call under the roll-up lock
 * (db/lead_totals.ts changeRolledLeads takes it), in the transaction that stores the lead.
 */
export async function keyLateLead(db: Queryable, id: number, tz: string): Promise<void> {
  const rows = await db.query<{ day: string }>(
    `select to_char((submitted_at at time zone $2)::date, 'YYYY-MM-DD') as day from leads
      where id = $1 and session_id <> '' and submitted_at < ${KEYS_UNTIL}`,
    [id, tz],
  );
  if (!rows.length) return;
  await db.query(
    `with e as (select 'lead' as event, id, session_id, $1::date as day from leads where id = $2),
     v as (${sessionViewValues("e", dayStart("$1", "$3", 1))}),
     k as (
       insert into session_keys (event, filter, value, day, id)
       select distinct e.event, v.filter, v.value, e.day, e.id from e join v on ${SAME_SESSION_DAYS("e", "v")}
       on conflict do nothing
       returning *)
     insert into daily_filter_leads (filter, value, day, utm_source, last_channel, leads)
     ${SUMMED_KEYS("k")}
     on conflict (filter, value, day, utm_source, last_channel)
     do update set leads = daily_filter_leads.leads + excluded.leads`,
    [rows[0].day, id, tz],
  );
}

/**
 * Deletes the keys of leads about to be erased and takes them out of daily_filter_leads. Call before deleting
 * the leads, under the roll-up lock, in the erasure's transaction (db/lgpd.ts).
 */
export async function forgetLeadKeys(db: Queryable, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.query(
    `with k as (delete from session_keys where event = 'lead' and id = any($1::bigint[]) returning *),
     gone (filter, value, day, utm_source, last_channel, n) as (${SUMMED_KEYS("k")})
     update daily_filter_leads f set leads = f.leads - gone.n from gone
      where f.filter = gone.filter and f.value = gone.value and f.day = gone.day
        and f.utm_source = gone.utm_source and f.last_channel = gone.last_channel`,
    [ids],
  );
  await db.query("delete from daily_filter_leads where leads <= 0");
}
