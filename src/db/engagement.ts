// Engagement figures (docs/ANALYTICS.md, "Engagement"): visits (sessions), bounces, page views and visible
// time, per local day in the analytics time zone. A visit is one browser session's page views on one local
// day (a session that runs past midnight is a visit on each day, as Universal Analytics counted them), so a
// period's figures are exact sums of its days.
//
// The roll-up job writes daily_engagement and daily_page_engagement with the other roll-ups (the days from
// the first day not final yet, the watermark's day up to the watermark). Page views and visible time add up
// across any instant, so they are read as the other reports are: the roll-ups up to the watermark and the raw
// rows after it (dashboard_queries.ts splitWith). A day's visits and bounces cannot be added up from two
// halves split at an instant (a session with page views on both sides would count twice), so:
// - without a cut, the watermark's day's row (up to the watermark) is corrected by the sessions of the raw rows
//   after the watermark, each looked up in open_day_sessions (that day's sessions up to the watermark, written
//   by the same run): a session seen before adds no visit, a bounce that goes on stops being one. The raw rows
//   read are the few minutes after the watermark, however busy the day.
// - with a cut (a comparison's last day, up to a time of day), the roll-ups of the final days before the cut
//   day and the raw rows from the local midnight of the cut day (or of the watermark's day, if earlier) on.
// Until the first run after migration 00032 has filled open_day_sessions, the first form is not used.
import type { Queryable } from "./client.ts";
import { type DayRange, RAW as AFTER_WATERMARK, splitWith } from "./dashboard_queries.ts";
import { backfillPending, LOCAL_DAY, SPAN } from "./rollups.ts";
import { BEFORE_CUT } from "./hourly.ts";
import { MONTH_SPLIT, ROLLED_DAYS, ROLLED_MONTHS } from "./months.ts";

// A page view without a session id (browser storage disabled) is a visit of its own.
const SESSION = "coalesce(nullif(session_id, ''), 'row:' || id::text)";

/**
 * Rewrites daily_engagement and daily_page_engagement from `from` on with the events from from's local
 * midnight to `until`; returns how many days have engagement rows.
 */
export async function rollUpEngagement(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_engagement where day >= $1::date", [from]);
  await db.query("delete from daily_page_engagement where day >= $1::date", [from]);
  const rows = await db.query<{ n: number }>(
    `with v as (
       select ${LOCAL_DAY} as day, ${SESSION} as sid, count(*) as n from visits where ${SPAN} group by 1, 2),
     c as (select distinct ${LOCAL_DAY} as day, session_id as sid from clicks where ${SPAN} and session_id <> ''),
     s as (
       select v.day, count(*) as sessions, count(*) filter (where v.n = 1 and c.sid is null) as bounces,
              sum(v.n) as views
         from v left join c on c.day = v.day and c.sid = v.sid group by v.day),
     e as (select ${LOCAL_DAY} as day, sum(engaged_ms) as ms from engagements where ${SPAN} group by 1),
     ins as (
       insert into daily_engagement (day, sessions, bounces, page_views, engaged_ms)
       select coalesce(s.day, e.day), coalesce(s.sessions, 0), coalesce(s.bounces, 0), coalesce(s.views, 0),
              coalesce(e.ms, 0)
         from s full join e on e.day = s.day
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  await db.query(
    `insert into daily_page_engagement (day, page, views, engaged_ms)
     select day, page, sum(views)::int, sum(ms) from (
       select ${LOCAL_DAY} as day, source as page, count(*) as views, 0 as ms from visits where ${SPAN} group by 1, 2
       union all
       select ${LOCAL_DAY}, source, 0, sum(engaged_ms) from engagements where ${SPAN} group by 1, 2
     ) t group by day, page`,
    [from, until, tz],
  );
  return rows[0].n;
}

/**
 * Rewrites open_day_sessions (migrations/00032): the sessions of `until`'s local day up to `until`, with their page
 * views and whether they clicked (a session that only clicked has 0 views). `from` is not used: the rows of the
 * days before are not needed once those days are final.
 */
export async function rollUpOpenDaySessions(
  db: Queryable,
  _from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from open_day_sessions");
  // $1 the run's end, $2 the time zone: the events from the local midnight of $1's day to $1.
  const open =
    `occurred_at >= ((($1::timestamptz at time zone $2)::date)::timestamp at time zone $2) and occurred_at < $1`;
  const day = "(occurred_at at time zone $2)::date";
  const rows = await db.query<{ n: number }>(
    `with ins as (
       insert into open_day_sessions (day, session, views, clicked)
       select day, sid, coalesce(v.n, 0), c.sid is not null
         from (select ${day} as day, ${SESSION} as sid, count(*) as n from visits where ${open} group by 1, 2) v
         full join (
           select distinct ${day} as day, session_id as sid from clicks where ${open} and session_id <> ''
         ) c using (day, sid)
       returning 1)
     select count(*)::int as n from ins`,
    [until, tz],
  );
  return rows[0].n;
}

/**
 * Rewrites daily_session_seconds (migrations/00034) from `from` on with the events from from's local midnight to
 * `until`: per day, the sorted seconds (since the local midnight, rounded down) at which its sessions had their
 * first page view, and at which those that did not stay a bounce stopped being one.
 */
export async function rollUpSessionSeconds(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query("delete from daily_session_seconds where day >= $1::date", [from]);
  const second = (t: string) => `floor(extract(epoch from ${t} - (day::timestamp at time zone $3)))::int`;
  const rows = await db.query<{ n: number }>(
    `with v as (
       select ${LOCAL_DAY} as day, ${SESSION} as sid, occurred_at,
              row_number() over (partition by ${LOCAL_DAY}, ${SESSION} order by occurred_at) as rn
         from visits where ${SPAN}),
     firsts as (
       select day, sid, min(occurred_at) filter (where rn = 1) as first, min(occurred_at) filter (where rn = 2) as second
         from v where rn <= 2 group by 1, 2),
     c as (
       select ${LOCAL_DAY} as day, session_id as sid, min(occurred_at) as click from clicks
        where ${SPAN} and session_id <> '' group by 1, 2),
     s as (
       select f.day, f.first,
              case when coalesce(f.second, c.click) is not null then greatest(f.first, least(f.second, c.click)) end
                as settle
         from firsts f left join c on c.day = f.day and c.sid = f.sid),
     ins as (
       insert into daily_session_seconds (day, starts, settles)
       select day, array_agg(${second("first")} order by first),
              coalesce(array_agg(${second("settle")} order by settle) filter (where settle is not null), '{}')
         from s group by day
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  return rows[0].n;
}

// The split for visits and bounces, as CTE `sb` ($1 start, $2 end, $3 time zone, $4 a local time of day or
// null): roll-up days sb.s..sb.re (final days only), raw rows from sb.raw_from to sb.raw_to. With a cut, only the
// events of day $2 before that time count, so that day comes from the raw rows.
const SESSION_SPLIT =
  `sst as (select coalesce((select through from rollup_state), '-infinity'::date) as through),
  sb as (
    select $1::date as s,
           case when $4::time is null then least($2::date, sst.through - 1)
                else least($2::date - 1, sst.through - 1) end as re,
           greatest($1::date, case when $4::time is null then sst.through else least(sst.through, $2::date) end)
             ::timestamp at time zone $3 as raw_from,
           (case when $4::time is null then ($2::date + 1)::timestamp else $2::date + $4::time end)
             at time zone $3 as raw_to
      from sst)`;
const SESSION_RAW = "occurred_at >= sb.raw_from and occurred_at < sb.raw_to";

/**
 * CTEs `rv` (page views per local day and session) and `rc` (the sessions that clicked, per day) of the raw rows
 * matching `raw`, with the split's CTE `split` in the FROM list.
 */
const RAW_SESSIONS = (split: string, raw: string) =>
  `rv as (
    select ${LOCAL_DAY} as day, ${SESSION} as sid, count(*) as n from visits, ${split} where ${raw} group by 1, 2),
  rc as (
    select distinct ${LOCAL_DAY} as day, session_id as sid from clicks, ${split} where ${raw} and session_id <> '')`;

/** Visits and bounces as CTEs `rolled` and `raw` (needs SESSION_SPLIT): final days rolled up, the rest raw. */
const SESSIONS_FROM_MIDNIGHT = `${RAW_SESSIONS("sb", SESSION_RAW)},
  raw as (
    select count(*) as sessions, count(*) filter (where rv.n = 1 and rc.sid is null) as bounces
      from rv left join rc on rc.day = rv.day and rc.sid = rv.sid),
  rolled as (
    select coalesce(sum(sessions), 0) as sessions, coalesce(sum(bounces), 0) as bounces
      from daily_engagement, sb where day between sb.s and sb.re)`;

/**
 * Visits and bounces as CTEs `rolled` and `raw` (needs splitWith's `b`, no cut): the roll-up rows up to the
 * watermark, and what the sessions of the raw rows after it change, each session's part before the watermark
 * (on the watermark's day) read from open_day_sessions: a visit when it had no page view before; a bounce is
 * one page view and no click in all, so one that was a bounce and goes on stops being one, and one that
 * starts now may be.
 */
const SESSIONS_AFTER_WATERMARK = `${RAW_SESSIONS("b", AFTER_WATERMARK("occurred_at"))},
  after as (
    select coalesce(o.views, 0) as pre_n, coalesce(o.clicked, false) as pre_c, coalesce(x.n, 0) as post_n,
           x.clicked as post_c
      from (select day, sid, rv.n, rc.sid is not null as clicked from rv full join rc using (day, sid)) x
      left join open_day_sessions o on o.day = x.day and o.session = x.sid),
  raw as (
    select count(*) filter (where pre_n = 0 and post_n > 0) as sessions,
           count(*) filter (where pre_n + post_n = 1 and not (pre_c or post_c)) -
             count(*) filter (where pre_n = 1 and not pre_c) as bounces
      from after),
  rolled as (
    select coalesce(sum(sessions), 0) as sessions, coalesce(sum(bounces), 0) as bounces
      from daily_engagement, b where day between b.s and b.re)`;

export interface EngagementTotals {
  /** Visits: sessions, one per browser session and local day. */
  sessions: number;
  /** Visits with one page view and no click (plan or WhatsApp). */
  bounces: number;
  pageViews: number;
  /** Visible time received in the period, in ms. */
  engagedMs: number;
}

/**
 * Visits, bounces, page views and visible time of a period; with `until` (a local time of day, HH:mm:ss),
 * only the events of its last day before that time.
 */
export async function engagementTotals(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null = null,
): Promise<EngagementTotals> {
  if (until !== null) {
    const cut = await engagementBeforeCut(db, range, tz, until);
    if (cut) return cut;
  }
  const incremental = until === null && !(await backfillPending(db, "open_day_sessions_backfill"));
  const rows = await db.query<EngagementTotals>(
    `with ${splitWith("$4::time")},
     ${incremental ? SESSIONS_AFTER_WATERMARK : `${SESSION_SPLIT}, ${SESSIONS_FROM_MIDNIGHT}`},
     -- Page views and visible time: the roll-ups up to the watermark instant, the raw rows after it.
     added as (
       select coalesce(sum(page_views), 0) as views, coalesce(sum(engaged_ms), 0) as ms
         from daily_engagement, b where day between b.s and b.re)
     select (rolled.sessions + raw.sessions)::int as sessions, (rolled.bounces + raw.bounces)::int as bounces,
            (added.views + (select count(*) from visits, b where ${AFTER_WATERMARK("occurred_at")}))::int
              as "pageViews",
            (added.ms + (select coalesce(sum(engaged_ms), 0) from engagements, b
                          where ${AFTER_WATERMARK("occurred_at")}))::float8 as "engagedMs"
       from rolled, raw, added`,
    [range.start, range.end, tz, until],
  );
  return rows[0];
}

/**
 * engagementTotals with a cut, when the roll-ups can answer: the days before the cut day from daily_engagement
 * (final, since the watermark has passed the cut), the cut day's visits and bounces from its session seconds
 * (those that started before the cut, minus those that settled before it) and its page views and visible time
 * from its hours (db/hourly.ts BEFORE_CUT). Null when the cut day has no row yet, the watermark has not passed the
 * cut, or the day's raw rows are purged.
 */
async function engagementBeforeCut(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string,
): Promise<EngagementTotals | null> {
  const rows = await db.query<EngagementTotals & { ok: boolean }>(
    `with t as (
       -- The last whole second before the cut, since the local midnight.
       select ceil(extract(epoch from ($2::date + $4::time)::timestamp at time zone $3
                                      - $2::date::timestamp at time zone $3))::int - 1 as last,
              ($2::date + $4::time)::timestamp at time zone $3 as cut),
     wm as (
       select coalesce((select until from rollup_state), '-infinity') as until,
              coalesce((select purged_through from rollup_state), '-infinity'::date) as purged),
     cut_seconds as (
       -- The seconds up to it in each sorted array, by binary search (db/day_first_visits.ts).
       select width_bucket(t.last, d.starts) as sessions, width_bucket(t.last, d.settles) as settled
         from daily_session_seconds d, t where d.day = $2::date),
     rolled as (
       select coalesce(sum(sessions), 0) as sessions, coalesce(sum(bounces), 0) as bounces,
              coalesce(sum(page_views), 0) as views, coalesce(sum(engaged_ms), 0) as ms
         from daily_engagement where day between $1::date and $2::date - 1)
     select (rolled.sessions + coalesce(cut_seconds.sessions, 0))::int as sessions,
            (rolled.bounces + coalesce(cut_seconds.sessions - cut_seconds.settled, 0))::int as bounces,
            (rolled.views + cut_day.views)::int as "pageViews",
            (rolled.ms + cut_day.ms)::float8 as "engagedMs",
            (select count(*) from cut_seconds) = 1 and wm.until > t.cut and wm.purged < $2::date
              and not exists (select 1 from daily_session_seconds_backfill) as ok
       from rolled, t, wm left join cut_seconds on true,
            ${BEFORE_CUT("$2::date", "($2::date + $4::time)::timestamp at time zone $3", "$3")}`,
    [range.start, range.end, tz, until],
  );
  const { ok, ...totals } = rows[0];
  return ok ? totals : null;
}

export interface PageEngagement {
  page: string;
  views: number;
  /** Visible time received for the page, in ms. */
  engagedMs: number;
}

/** The most viewed pages (page keys) of a period with their visible time; ties by page. */
export async function pageEngagement(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<PageEngagement[]> {
  return await db.query<PageEngagement>(
    `with ${splitWith("null")}, ${MONTH_SPLIT}
     select page, sum(views)::int as views, sum(ms)::float8 as "engagedMs" from (
       select source as page, count(*) as views, 0 as ms from visits, b where ${
      AFTER_WATERMARK("occurred_at")
    } group by 1
       union all
       select source, 0, sum(engaged_ms) from engagements, b where ${
      AFTER_WATERMARK("occurred_at")
    } group by 1
       union all
       -- Added up per page first: the rows are hashed, where the whole union would be sorted.
       select page, sum(views), sum(engaged_ms) from monthly_page_engagement, bm where ${ROLLED_MONTHS} group by page
       union all
       select page, sum(views), sum(engaged_ms) from daily_page_engagement, bm where ${ROLLED_DAYS} group by page
     ) t group by page having sum(views) > 0 order by views desc, page asc limit $4`,
    [range.start, range.end, tz, limit],
  );
}
