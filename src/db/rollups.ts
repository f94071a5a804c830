// Roll-ups (migrations/00006_closed_day_rollups.sql). Days are yyyy-MM-dd in the analytics time zone; a
// run covers the raw events from the local midnight of `from` (the first day not final yet) to `until`,
// and rewrites the roll-up rows of those days.
import type { Queryable } from "./client.ts";
import { EVENT_TABLES } from "./event_columns.ts";
import { ROLLED_DIMENSIONS } from "./rankings.ts";
import { LEAD_DIM_VALUES } from "./lead_totals.ts";

/** How far the roll-ups go: null when nothing is rolled up / purged yet. */
export interface RollupState {
  /** The last local day with roll-up rows (the day of `until`). */
  through: string | null;
  /** Events before this instant are rolled up; null after 00005 alone: the local midnight after `through`. */
  until: Date | null;
  purgedThrough: string | null;
}

const DAY_TEXT = (column: string) =>
  `case when isfinite(${column}) then to_char(${column}, 'YYYY-MM-DD') end`;

/**
 * The flag tables of the roll-ups added after others had run (migrations 00018, 00022, 00024–00027, 00029,
 * 00032–00036; 00028 sets four of them again): a row means the days rolled up before that migration still wait
 * for their rows; the next run writes them from the raw rows still kept (the leads' from every lead, 00036),
 * then deletes the row (services/rollups.ts). Until then, readers read the raw rows.
 */
export type BackfillFlag =
  | "daily_lead_totals_backfill"
  | "daily_lead_dims_backfill"
  | "engagement_backfill"
  | "open_day_sessions_backfill"
  | "daily_first_visits_backfill"
  | "daily_session_seconds_backfill"
  | "hourly_totals_backfill"
  | "filter_engagement_backfill"
  | "filter_page_engagement_backfill"
  | "filter_visitors_backfill"
  | "filter_actions_backfill"
  | "utm_detail_backfill"
  | "session_keys_backfill";

/** Whether any of these roll-ups still waits for its backfill. */
export async function backfillPending(db: Queryable, ...flags: BackfillFlag[]): Promise<boolean> {
  return (await db.query(flags.map((flag) => `select 1 from ${flag}`).join(" union all "))).length > 0;
}

/** Marks a roll-up's backfill done. */
export async function backfillDone(db: Queryable, flag: BackfillFlag): Promise<void> {
  await db.query(`delete from ${flag}`);
}

/** The roll-up watermark and the purge watermark. */
export async function rollupState(db: Queryable): Promise<RollupState> {
  const rows = await db.query<RollupState>(
    `select ${DAY_TEXT("through")} as through, until, ${DAY_TEXT("purged_through")} as "purgedThrough"
       from rollup_state`,
  );
  const row = rows[0];
  return row
    ? { ...row, until: row.until === null ? null : new Date(row.until) }
    : { through: null, until: null, purgedThrough: null };
}

/** Gives the current transaction room to sort and hash a backlog of days in memory. */
export async function roomForRollups(tx: Queryable): Promise<void> {
  await tx.query("select set_config('work_mem', '64MB', true)");
}

/** Moves the roll-up watermark to `until`, whose local day is `through`. */
export async function setRolledUntil(db: Queryable, through: string, until: Date): Promise<void> {
  await db.query(
    `insert into rollup_state (through, until, purged_through) values ($1::date, $2, '-infinity')
     on conflict (id) do update set through = excluded.through, until = excluded.until`,
    [through, until],
  );
}

/** Moves the purge watermark to `day` (never backwards). */
export async function setPurgedThrough(db: Queryable, day: string): Promise<void> {
  await db.query(
    `insert into rollup_state (through, purged_through) values ('-infinity', $1::date)
     on conflict (id) do update set purged_through = greatest(rollup_state.purged_through, excluded.purged_through)`,
    [day],
  );
}

/** The earliest local day with a raw visit, click or conversion; null when there is none. */
export async function earliestRawDay(db: Queryable, tz: string): Promise<string | null> {
  const rows = await db.query<{ day: string | null }>(
    `select to_char((least(${
      EVENT_TABLES.map((t) => `(select min(occurred_at) from ${t})`).join(", ")
    }) at time zone $1)::date, 'YYYY-MM-DD') as day`,
    [tz],
  );
  return rows[0].day;
}

/**
 * Every roll-up's run reads the raw rows of its span: $1 the first local day, $2 the instant the span ends
 * (exclusive), $3 the time zone; LOCAL_DAY is a row's local day.
 */
export const SPAN = "occurred_at >= ($1::date::timestamp at time zone $3) and occurred_at < $2";
export const LOCAL_DAY = "(occurred_at at time zone $3)::date";

/**
 * The one shape of every daily roll-up: deletes `table`'s rows from day `from` on, then runs `insert` (an
 * insert ... select over the raw rows of the run, $1 from, $2 until, $3 time zone); returns the rows written.
 */
async function rewriteDaysFrom(
  db: Queryable,
  table: string,
  insert: string,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  await db.query(`delete from ${table} where day >= $1::date`, [from]);
  const rows = await db.query<{ n: number }>(
    `with written as (${insert} returning 1) select count(*)::int as n from written`,
    [from, until, tz],
  );
  return rows[0].n;
}

/** Rewrites daily_totals (visits, unique visitors, plan and WhatsApp clicks, conversions per day). */
export function rollUpTotals(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  return rewriteDaysFrom(
    db,
    "daily_totals",
    `insert into daily_totals (day, visits, unique_visitors, clicks, conversions, whatsapp_clicks)
     select day, sum(v)::int, sum(u)::int, sum(c)::int, sum(k)::int, sum(w)::int from (
       select ${LOCAL_DAY} as day, count(*) as v, count(distinct visitor_key) as u, 0 as c, 0 as k, 0 as w
         from visits where ${SPAN} group by 1
       union all
       select ${LOCAL_DAY}, 0, 0, count(*) filter (where kind = 'plan'), 0, count(*) filter (where kind = 'whatsapp')
         from clicks where ${SPAN} group by 1
       union all
       select ${LOCAL_DAY}, 0, 0, 0, count(*), 0 from conversions where ${SPAN} group by 1
     ) t group by day
     on conflict (day) do nothing`,
    from,
    until,
    tz,
  );
}

/**
 * Rewrites daily_visit_ranks: visits per UTM source, UTM campaign, page, traffic source and channel, and
 * entries per landing page (migrations/00011); WhatsApp clicks per page (00017).
 */
export function rollUpVisitRanks(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  // One pass over the raw rows for every dimension.
  return rewriteDaysFrom(
    db,
    "daily_visit_ranks",
    `insert into daily_visit_ranks (day, dimension, key, visits)
     select day, dimension, key, sum(n)::int from (
       select ${LOCAL_DAY} as day, utm_source, utm_campaign, source, traffic_source, channel, entry, count(*) as n
         from visits where ${SPAN} group by 1, 2, 3, 4, 5, 6, 7) t,
       lateral (values ${ROLLED_DIMENSIONS.map(([d, column]) => `('${d}', ${column})`).join(", ")})
         as d(dimension, key)
      where key is not null and key <> ''
      group by day, dimension, key
     union all
     -- WhatsApp clicks per page (migrations/00017): \`visits\` holds clicks under this dimension.
     select ${LOCAL_DAY}, 'whatsapp_page', source, count(*)::int from clicks
      where ${SPAN} and kind = 'whatsapp' and source <> '' group by 1, 3
     on conflict (day, dimension, key) do nothing`,
    from,
    until,
    tz,
  );
}

/**
 * Rewrites one table of actions per day and key: plan clicks, conversions and WhatsApp clicks per UTM source
 * (daily_source_actions, '' for none) or per channel (daily_channel_actions, events without one left out).
 */
export function rollUpActions(
  by: "utm_source" | "channel",
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  const [table, key, where] = by === "utm_source"
    ? ["daily_source_actions", "coalesce(utm_source, '')", ""]
    : ["daily_channel_actions", "channel", "and channel is not null"];
  return rewriteDaysFrom(
    db,
    table,
    `insert into ${table} (day, ${by}, clicks, conversions, whatsapp_clicks)
     select day, k, sum(c)::int, sum(n)::int, sum(w)::int from (
       select ${LOCAL_DAY} as day, ${key} as k, (kind = 'plan')::int as c, 0 as n, (kind = 'whatsapp')::int as w
         from clicks where ${SPAN} ${where}
       union all
       select ${LOCAL_DAY}, ${key}, 0, 1, 0 from conversions where ${SPAN} ${where}
     ) t group by day, k
     on conflict (day, ${by}) do nothing`,
    from,
    until,
    tz,
  );
}

/** Rewrites daily_lead_totals (migrations/00036): leads per day, UTM source and last-touch channel. */
export function rollUpLeadTotals(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  return rewriteDaysFrom(
    db,
    "daily_lead_totals",
    `insert into daily_lead_totals (day, utm_source, last_channel, leads)
     select (submitted_at at time zone $3)::date, coalesce(utm_source, ''), coalesce(last_channel, ''),
            count(*)::int
       from leads
      where submitted_at >= ($1::date::timestamp at time zone $3) and submitted_at < $2
      group by 1, 2, 3`,
    from,
    until,
    tz,
  );
}

/** Rewrites daily_lead_dims: leads per value of each of their columns in LEAD_DIMS (db/lead_totals.ts). */
export function rollUpLeadDims(db: Queryable, from: string, until: Date, tz: string): Promise<number> {
  return rewriteDaysFrom(
    db,
    "daily_lead_dims",
    `insert into daily_lead_dims (day, dimension, key, leads)
     select (l.submitted_at at time zone $3)::date, d.dimension, coalesce(d.key, ''), count(*)::int
       from leads l, lateral (values ${LEAD_DIM_VALUES}) as d(dimension, key)
      where l.submitted_at >= ($1::date::timestamp at time zone $3) and l.submitted_at < $2
      group by 1, 2, 3`,
    from,
    until,
    tz,
  );
}

/** The local day of the first lead; null when there is none. */
export async function earliestLeadDay(db: Queryable, tz: string): Promise<string | null> {
  const rows = await db.query<{ day: string | null }>(
    "select to_char((min(submitted_at) at time zone $1)::date, 'YYYY-MM-DD') as day from leads",
    [tz],
  );
  return rows[0].day;
}
