// What production can never write, as SQL: each query returns the rows that break one rule (none in a
// database only the server wrote). The seed (testing/seed.ts) must obey them as well, or every benchmark and
// screenshot shows a state no real site can reach; src/db/invariants_test.ts checks both.
import type { Queryable } from "../src/db/client.ts";

export interface InvariantContext {
  timeZone: string;
  /** services/leads.ts's first-touch window (config ATTRIBUTION_DAYS). */
  attributionDays: number;
  /** No event or lead is later than this. */
  now: Date;
}

export interface Invariant {
  name: string;
  /** The rule, in words. */
  rule: string;
  sql: string;
  args(c: InvariantContext): unknown[];
}

// The click that opens the lead form of a plan (browser: pricing_{plan key}_plan, the specialist's own).
const PLAN_CLICK = (plan: string) =>
  `case ${plan} when 'enterprise' then 'pricing_specialist_enterprise' else 'pricing_' || ${plan} || '_plan' end`;

// Every visit and click with the touch of its session at that moment: the latest entry (a page that started
// the session's touch) at or before it; a visit comes before a click of the same instant.
const SESSION_TOUCH = `
  ev as (
    select 'visit' as t, id, session_id, occurred_at, entry, channel, traffic_source, utm_source, utm_medium,
           utm_campaign from visits
    union all
    select 'click', id, session_id, occurred_at, false, channel, traffic_source, utm_source, utm_medium,
           utm_campaign from clicks),
  numbered as (
    select ev.*, count(*) filter (where entry)
             over (partition by session_id order by occurred_at, t desc, id) as touch_no
      from ev),
  touched as (
    select numbered.*,
           row(channel, traffic_source, utm_source, utm_medium, utm_campaign)::text as own,
           first_value(row(channel, traffic_source, utm_source, utm_medium, utm_campaign)::text)
             over (partition by session_id, touch_no order by occurred_at, t desc, id) as touch
      from numbered)`;

export const INVARIANTS: Invariant[] = [
  {
    name: "conversion without a stored lead",
    rule: "a session never has more conversions than stored leads (a conversion reports a stored lead)",
    sql: `select c.session_id, c.n as conversions, coalesce(l.n, 0)::int as leads
            from (select session_id, count(*)::int as n from conversions group by 1) c
            left join (select session_id, count(*)::int as n from leads group by 1) l using (session_id)
           where c.n > coalesce(l.n, 0)`,
    args: () => [],
  },
  {
    name: "conversion before its lead",
    rule: "a conversion is stored after the lead it reports",
    sql: `select c.id, c.occurred_at from conversions c
           where c.occurred_at < (select min(l.submitted_at) from leads l where l.session_id = c.session_id)`,
    args: () => [],
  },
  {
    name: "conversion channel not its lead's",
    rule: "a conversion takes the last-touch channel of a lead of its session",
    sql: `select c.id, c.channel from conversions c
           where not exists (select 1 from leads l
                              where l.session_id = c.session_id and l.last_channel is not distinct from c.channel)`,
    args: () => [],
  },
  {
    name: "lead plan not its label's",
    rule: "a lead's plan is the plan its label names (services/leads.ts planValue)",
    sql: `select id, plan, plan_label from leads
           where plan <> case
             when plan_label ~* '\\mmicro\\M' then 'micro'
             when plan_label ~* '\\mpremium\\M' then 'premium'
             when plan_label ~* '\\mpro\\M' then 'pro'
             when plan_label ~* '\\m(especialista|specialist|enterprise)\\M' then 'enterprise'
             else 'unknown' end`,
    args: () => [],
  },
  {
    name: "lead without its plan click",
    rule: "a lead belongs to a session in which its plan's button was clicked before it was sent",
    sql: `select l.id, l.session_id, l.plan from leads l
           where l.session_id is null
              or not exists (select 1 from clicks c
                              where c.session_id = l.session_id and c.occurred_at <= l.submitted_at
                                and c.kind = 'plan' and c.source = ${PLAN_CLICK("l.plan")})`,
    args: () => [],
  },
  {
    name: "lead fields",
    rule: "a lead has a name, an e-mail of the form a@b.c and a WhatsApp number",
    sql: `select id from leads
           where btrim(name) = '' or email !~ '^\\S+@\\S+\\.\\S+$' or btrim(whatsapp) = ''`,
    args: () => [],
  },
  {
    name: "click without a page view",
    rule: "a plan or WhatsApp click follows a page view of its session",
    sql: `select c.id, c.session_id from clicks c
           where not exists (select 1 from visits v
                              where v.session_id = c.session_id and v.occurred_at <= c.occurred_at)`,
    args: () => [],
  },
  {
    name: "WhatsApp click off its page",
    rule: "a WhatsApp click's source is the path of a page its session viewed at or before it",
    sql: `select c.id, c.session_id, c.source from clicks c
           where c.kind = 'whatsapp'
             and not exists (select 1 from visits v
                              where v.session_id = c.session_id and v.occurred_at <= c.occurred_at
                                and split_part(v.source, '?', 1) = c.source)`,
    args: () => [],
  },
  {
    name: "event outside its session's touch",
    rule: "every page view and click carries its session's touch (UTM, source, channel), from an entry on",
    sql: `with ${SESSION_TOUCH}
          select t, id, session_id, own, touch from touched where touch_no = 0 or own is distinct from touch`,
    args: () => [],
  },
  {
    name: "lead's last touch not its session's",
    rule: "a lead's UTM fields and last touch are those of its session's latest entry before it",
    sql: `select l.id from leads l
           left join lateral (
             select v.* from visits v
              where v.session_id = l.session_id and v.entry and v.occurred_at <= l.submitted_at
              order by v.occurred_at desc, v.id desc limit 1) e on true
           where e.id is null
              or (l.utm_source, l.utm_medium, l.utm_campaign, l.last_source, l.last_medium, l.last_campaign,
                  l.last_channel, l.last_landing_page)
                 is distinct from
                 (e.utm_source, e.utm_medium, e.utm_campaign, e.traffic_source, e.traffic_medium, e.utm_campaign,
                  e.channel, e.source)`,
    args: () => [],
  },
  {
    name: "lead's first touch not the visitor's first",
    rule: "a lead's first touch is its visitor's earliest session start in the attribution window (any of " +
      "the visitor's monthly keys), else its last touch",
    sql: `select l.id from leads l
           cross join lateral (
             select visitor_key as k from visits
              where session_id = l.session_id order by occurred_at, id limit 1) s
           left join lateral (
             select v.* from visits v
              where v.entry and v.channel is not null and (v.visitor_key = s.k or s.k = any(v.link_keys))
                and v.occurred_at >= l.submitted_at - make_interval(days => $1::int)
                and v.occurred_at <= l.submitted_at
              order by v.occurred_at, v.id limit 1) f on true
           where (l.first_touch_at, l.first_source, l.first_medium, l.first_campaign, l.first_channel,
                  l.first_landing_page)
                 is distinct from
                 (f.occurred_at,
                  coalesce(f.traffic_source, l.last_source), coalesce(f.traffic_medium, l.last_medium),
                  case when f.id is null then l.last_campaign else f.utm_campaign end,
                  coalesce(f.channel, l.last_channel), case when f.id is null then l.last_landing_page else f.source end)`,
    args: (c) => [c.attributionDays],
  },
  {
    name: "event or lead in the future",
    rule: "nothing is stored with a time after now",
    sql: `select 'visit' as t, id from visits where occurred_at > $1
          union all select 'click', id from clicks where occurred_at > $1
          union all select 'conversion', id from conversions where occurred_at > $1
          union all select 'lead', id from leads where submitted_at > $1`,
    args: (c) => [c.now],
  },
  {
    name: "visitor key shape",
    rule: "a visitor key is 32 hexadecimal characters (services/visitor_key.ts), and so is each link key",
    sql: `select 'visit' as t, id from visits
           where visitor_key !~ '^[0-9a-f]{32}$'
              or exists (select 1 from unnest(link_keys) k where k !~ '^[0-9a-f]{32}$')
          union all select 'click', id from clicks where visitor_key !~ '^[0-9a-f]{32}$'
          union all select 'conversion', id from conversions where visitor_key !~ '^[0-9a-f]{32}$'`,
    args: () => [],
  },
  {
    name: "daily totals not the raw rows'",
    rule:
      "each rolled-up day's visits, unique visitors, clicks and conversions are its raw rows' (before the " +
      "watermark, after the purged days)",
    sql: `with st as (
            select coalesce(until, (through + 1)::timestamp at time zone $1) as until, purged_through
              from rollup_state),
          e as (
            select (occurred_at at time zone $1)::date as day, 1 as v, visitor_key as k, 0 as c, 0 as x, 0 as w
              from visits, st where occurred_at < st.until
            union all select (occurred_at at time zone $1)::date, 0, null, (kind = 'plan')::int, 0,
                             (kind = 'whatsapp')::int from clicks, st
             where occurred_at < st.until
            union all select (occurred_at at time zone $1)::date, 0, null, 0, 1, 0 from conversions, st
             where occurred_at < st.until),
          raw as (
            select day, sum(v)::int as visits, count(distinct k)::int as uv, sum(c)::int as clicks,
                   sum(x)::int as conversions, sum(w)::int as whatsapp from e group by day)
          select coalesce(r.day, d.day) as day, r.visits, d.visits as rolled_visits, r.uv,
                 d.unique_visitors, r.clicks, d.clicks as rolled_clicks, r.conversions,
                 d.conversions as rolled_conversions, r.whatsapp, d.whatsapp_clicks as rolled_whatsapp
            from raw r full join daily_totals d on d.day = r.day, st
           where coalesce(r.day, d.day) > st.purged_through
             and (coalesce(r.visits, 0), coalesce(r.uv, 0), coalesce(r.clicks, 0), coalesce(r.conversions, 0),
                  coalesce(r.whatsapp, 0))
                 <> (coalesce(d.visits, 0), coalesce(d.unique_visitors, 0), coalesce(d.clicks, 0),
                     coalesce(d.conversions, 0), coalesce(d.whatsapp_clicks, 0))`,
    args: (c) => [c.timeZone],
  },
  {
    name: "channel and source roll-ups not the raw rows'",
    rule:
      "each rolled-up day's plan clicks, conversions and WhatsApp clicks per channel and per UTM source are its " +
      "raw rows'",
    sql: `with st as (
            select coalesce(until, (through + 1)::timestamp at time zone $1) as until, purged_through
              from rollup_state),
          e as (
            select (occurred_at at time zone $1)::date as day, channel, coalesce(utm_source, '') as s,
                   (kind = 'plan')::int as c, 0 as x, (kind = 'whatsapp')::int as w
              from clicks, st where occurred_at < st.until
            union all select (occurred_at at time zone $1)::date, channel, coalesce(utm_source, ''), 0, 1, 0
              from conversions, st where occurred_at < st.until),
          by_channel as (
            select day, channel, sum(c)::int as clicks, sum(x)::int as conversions, sum(w)::int as whatsapp
              from e where channel is not null group by 1, 2),
          by_source as (
            select day, s, sum(c)::int as clicks, sum(x)::int as conversions, sum(w)::int as whatsapp
              from e group by 1, 2)
          select 'channel' as dimension, coalesce(r.day, d.day) as day, coalesce(r.channel, d.channel) as key
            from by_channel r full join daily_channel_actions d on d.day = r.day and d.channel = r.channel, st
           where coalesce(r.day, d.day) > st.purged_through
             and (coalesce(r.clicks, 0), coalesce(r.conversions, 0), coalesce(r.whatsapp, 0))
                 <> (coalesce(d.clicks, 0), coalesce(d.conversions, 0), coalesce(d.whatsapp_clicks, 0))
          union all
          select 'utm_source', coalesce(r.day, d.day), coalesce(r.s, d.utm_source)
            from by_source r full join daily_source_actions d on d.day = r.day and d.utm_source = r.s, st
           where coalesce(r.day, d.day) > st.purged_through
             and (coalesce(r.clicks, 0), coalesce(r.conversions, 0), coalesce(r.whatsapp, 0))
                 <> (coalesce(d.clicks, 0), coalesce(d.conversions, 0), coalesce(d.whatsapp_clicks, 0))`,
    args: (c) => [c.timeZone],
  },
];

/** The rows breaking each invariant (at most `sample` per rule); an empty object when all hold. */
export async function invariantViolations(
  db: Queryable,
  context: InvariantContext,
  sample = 5,
): Promise<Record<string, { count: number; rows: unknown[] }>> {
  const out: Record<string, { count: number; rows: unknown[] }> = {};
  for (const inv of INVARIANTS) {
    const rows = await db.query(inv.sql, inv.args(context));
    if (rows.length) out[inv.name] = { count: rows.length, rows: rows.slice(0, sample) };
  }
  return out;
}
