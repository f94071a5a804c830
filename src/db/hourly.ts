// One local day hour by hour, for the dashboard's chart of a one-day period. An hour is an hour of elapsed time
// from the day's local midnight, so a day with a clock change in ANALYTICS_TZ has 23 or 25 of them (or 23.5 /
// 24.5: the last one is cut at the next midnight) and every event falls in exactly one.
//
// The roll-up job writes hourly_totals (migrations/00031, 00035): every whole hour that ended before its
// watermark, with its distinct visitors, clicks, page views and visible time. The chart reads those rows and
// the raw rows of the hours without one (the hour under way and the minutes after the watermark; the days
// rolled up before the migration), all in one statement, so the raw rows it reads are at most about an hour's,
// however busy the day. A visitor counts once per hour, so an hour is read whole from one side or the other,
// never split. Leads come from their table.
import type { Queryable } from "./client.ts";
import { LOCAL_DAY, SPAN } from "./rollups.ts";

export interface HourlyRow {
  /** The hour's first instant. */
  start: Date;
  /** Its local time of day, HH:mm. */
  label: string;
  /** Distinct visitors in that hour. */
  visits: number;
  /** Plan clicks. */
  clicks: number;
  whatsappClicks: number;
  leads: number;
}

const midnightOf = (day: string) => `(${day}::timestamp at time zone $3)`;
/** The first instant of the hour of a row (in SPAN's parameters: $3 the time zone). */
const ROW_HOUR = `${midnightOf(`(${LOCAL_DAY})`)} + floor(extract(epoch from occurred_at - ${
  midnightOf(`(${LOCAL_DAY})`)
}) / 3600) * interval '1 hour'`;

/**
 * Rewrites hourly_totals from from's local midnight on: every whole hour of those days that ended by `until`
 * (an hour cut by a clock change is left to the raw rows). Returns how many hours were written.
 */
export async function rollUpHourly(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  await db.query("delete from hourly_totals where hour >= ($1::date::timestamp at time zone $2)", [from, tz]);
  const rows = await db.query<{ n: number }>(
    `with hours as (
       select ${midnightOf("d::date")} + make_interval(hours => i) as start
         from generate_series($1::date, ($2::timestamptz at time zone $3)::date, interval '1 day') d,
              generate_series(0, 24) i
        where ${midnightOf("d::date")} + make_interval(hours => i + 1) <= least($2, ${
      midnightOf("(d::date + 1)")
    })),
     v as (select ${ROW_HOUR} as start, count(distinct visitor_key) as n, count(*) as views from visits where ${SPAN} group by 1),
     e as (select ${ROW_HOUR} as start, sum(engaged_ms) as ms from engagements where ${SPAN} group by 1),
     c as (select ${ROW_HOUR} as start, count(*) filter (where kind = 'plan') as plan,
                  count(*) filter (where kind = 'whatsapp') as wa
             from clicks where ${SPAN} group by 1),
     ins as (
       insert into hourly_totals (hour, visitors, plan_clicks, whatsapp_clicks, page_views, engaged_ms)
       select hours.start, coalesce(v.n, 0), coalesce(c.plan, 0), coalesce(c.wa, 0), coalesce(v.views, 0),
              coalesce(e.ms, 0)
         from hours left join v using (start) left join c using (start) left join e using (start)
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * SQL, a FROM item `cut_day(views, ms)`: the page views and visible time of local day `day` (a date expression)
 * before `cut` (an instant on that day), in time zone `tz`: the day's whole hours before the hour the cut falls in
 * from hourly_totals, that hour from the raw rows up to the cut; the raw rows from midnight when a whole hour has
 * no figures (rolled up before migration 00035, or not yet). Page views and visible time add up across hours.
 */
export const BEFORE_CUT = (day: string, cut: string, tz: string) =>
  `(with cut_at as (
      select ${day}::timestamp at time zone ${tz} as midnight, ${cut} as cut),
    cut_hours as (
      select midnight, cut, floor(extract(epoch from cut - midnight) / 3600)::int as whole,
             midnight + floor(extract(epoch from cut - midnight) / 3600) * interval '1 hour' as partial
        from cut_at),
    cut_rolled as (
      select count(t.page_views) as n, coalesce(sum(t.page_views), 0) as views, coalesce(sum(t.engaged_ms), 0) as ms
        from cut_hours h left join hourly_totals t on t.hour >= h.midnight and t.hour < h.partial),
    cut_raw as (
      select case when r.n = h.whole then h.partial else h.midnight end as since, h.cut,
             case when r.n = h.whole then r.views else 0 end as views,
             case when r.n = h.whole then r.ms else 0 end as ms
        from cut_rolled r, cut_hours h)
    select cut_raw.views + (select count(*) from visits where occurred_at >= cut_raw.since and occurred_at < cut_raw.cut)
             as views,
           cut_raw.ms + (select coalesce(sum(engaged_ms), 0) from engagements
                          where occurred_at >= cut_raw.since and occurred_at < cut_raw.cut) as ms
      from cut_raw) cut_day`;

/** Forgets the hours before `boundary` (retention: their raw rows are gone, and the chart shows no hours then). */
export async function forgetHoursBefore(db: Queryable, boundary: Date): Promise<void> {
  await db.query("delete from hourly_totals where hour < $1", [boundary]);
}

// $1 the local day, $2 the time zone.
const DAY_START = "($1::date::timestamp at time zone $2)";
const DAY_END = "(($1::date + 1)::timestamp at time zone $2)";
const HOUR_OF = (column: string) => `floor(extract(epoch from ${column} - ${DAY_START}) / 3600)::int`;
const RAW_HOURS = (column: string) => `${column} >= raw.since and ${column} < ${DAY_END}`;

/** Every hour of local day `day` in `tz`, oldest first, with its counts (roll-up, else raw rows). */
export async function hourlyCounts(db: Queryable, day: string, tz: string): Promise<HourlyRow[]> {
  const rows = await db.query<HourlyRow>(
    `with hours as (
       select i, ${DAY_START} + make_interval(hours => i) as start
         from generate_series(0, ceil(extract(epoch from ${DAY_END} - ${DAY_START}) / 3600)::int - 1) i),
     -- A whole hour's row (an hour cut by the next midnight is always read raw).
     rolled as (
       select hours.i, t.visitors, t.plan_clicks, t.whatsapp_clicks
         from hours join hourly_totals t on t.hour = hours.start
        where hours.start + interval '1 hour' <= ${DAY_END}),
     raw as (
       select coalesce(min(hours.start), ${DAY_END}) as since
         from hours where hours.i not in (select i from rolled)),
     v as (select ${HOUR_OF("occurred_at")} as i, count(distinct visitor_key) as n
             from visits, raw where ${RAW_HOURS("occurred_at")} group by 1),
     c as (select ${HOUR_OF("occurred_at")} as i, count(*) filter (where kind = 'plan') as plan,
                  count(*) filter (where kind = 'whatsapp') as wa
             from clicks, raw where ${RAW_HOURS("occurred_at")} group by 1),
     l as (select ${HOUR_OF("submitted_at")} as i, count(*) as n
             from leads where submitted_at >= ${DAY_START} and submitted_at < ${DAY_END} group by 1)
     select hours.start, to_char(hours.start at time zone $2, 'HH24:MI') as label,
            coalesce(rolled.visitors, v.n, 0)::int as visits,
            coalesce(rolled.plan_clicks, c.plan, 0)::int as clicks,
            coalesce(rolled.whatsapp_clicks, c.wa, 0)::int as "whatsappClicks", coalesce(l.n, 0)::int as leads
       from hours left join rolled using (i) left join v using (i) left join c using (i) left join l using (i)
      order by hours.i`,
    [day, tz],
  );
  return rows.map((r) => ({ ...r, start: new Date(r.start) }));
}
