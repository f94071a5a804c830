// The filters a click or a lead answers through its session (migrations/00029, docs/ANALYTICS.md "Filters"):
// the page, UTM content, UTM term and entry page are columns of the page views, not of the click or the lead, so
// "its session" decides: the event counts under a value when its session had a page view with it on the event's
// local day or the day before. That definition does not depend on the period being read, so it is written once
// per event: when an event's day is over, the roll-up job keeps its session's values as rows of `session_keys`
// (event, filter, value, day, id), and a filtered report finds the events of a value by that key instead of
// looking for their sessions among every page view of its period. The events after `session_keys_state.until`
// (today's) are looked up in the page views, with the same definition (db/filtered.ts filterSql).
import type { Queryable } from "./client.ts";
import type { FilterKey } from "../shared/filters.ts";

/** The filters answered through the session, and each one's value on a page view aliased `s`. */
export const SESSION_VALUES: Partial<Record<FilterKey, (s: string) => string>> = {
  page: (s) => `${s}.source`,
  utm_content: (s) => `${s}.utm_content`,
  utm_term: (s) => `${s}.utm_term`,
  entry_page: (s) => `case when ${s}.entry then split_part(${s}.source, '?', 1) end`,
};

/** The events with session keys: the table, its alias in `session_keys.event`, its instant column. */
export const KEYED_EVENTS = {
  clicks: { event: "click", time: "occurred_at" },
  leads: { event: "lead", time: "submitted_at" },
} as const;
export type KeyedTable = keyof typeof KEYED_EVENTS;

/** The instant before which every event has its keys ('-infinity' until the first run writes them). */
export const KEYS_UNTIL = "(select coalesce(max(until), '-infinity'::timestamptz) from session_keys_state)";

/**
 * The (session, day) pairs that match one session filter: each page view of `views` (a condition on `s`) with
 * the value `value` (an SQL expression), paired with its own local day and the next one (`tz` the time zone's
 * SQL). An event matches when its (session id, local day) is one of them.
 */
export function sessionDays(key: FilterKey, value: string, views: string, tz: string): string {
  const day = `(s.occurred_at at time zone ${tz})::date`;
  return `select s.session_id, d.day from visits s, lateral (values (${day}), (${day} + 1)) as d(day)
           where ${views} and s.session_id <> '' and ${SESSION_VALUES[key]!("s")} = ${value}`;
}

/**
 * The same definition for one event at a time: the event `alias` (its instant column `time`) matches when a
 * page view of `views` in its session, on its local day or the day before, has the value. For the few events
 * after KEYS_UNTIL: the matching page views are hashed by session once, without a row per view and day, and an
 * event is compared with its own session's views only (under the home page, a day of 2 clicks and 33 leads: 30 -> 10 ms).
 */
export function sessionViewed(
  key: FilterKey,
  value: string,
  alias: string,
  time: string,
  views: string,
  tz: string,
): string {
  const at = `${alias}.${time}`;
  return `${alias}.session_id <> '' and exists (
           select 1 from visits s
            where ${views} and s.session_id = ${alias}.session_id and ${SESSION_VALUES[key]!("s")} = ${value}
              and s.occurred_at >= ${midnight(at, tz, -1)} and s.occurred_at < ${midnight(at, tz, 1)})`;
}

/** The local midnight of a date plus `days` (infinite dates stay infinite). */
export const dayStart = (date: string, tz: string, days: number) =>
  `((${date})::date + ${days})::timestamp at time zone ${tz}`;

/** The local midnight of an instant's day plus `days` (infinite instants stay infinite). */
export const midnight = (instant: string, tz: string, days: number) =>
  dayStart(`((${instant}) at time zone ${tz})::date`, tz, days);

/**
 * The roll-ups' side of the definition: the values the sessions of `events` (a CTE with `session_id`) had on
 * their page views from local day $1 - 1 until `end` ($3 the time zone), one row per (session_id, day, filter,
 * value). An event of day D takes the rows of its session with day D - 1 or D (SAME_SESSION_DAYS).
 */
export function sessionViewValues(events: string, end: string): string {
  const values = Object.entries(SESSION_VALUES).map(([k, v]) => `('${k}', ${v!("s")})`).join(", ");
  return `select distinct s.session_id, (s.occurred_at at time zone $3)::date as day, k.filter, k.value
            from visits s, lateral (values ${values}) as k(filter, value)
           where s.occurred_at >= ${dayStart("$1", "$3", -1)} and s.occurred_at < ${end}
             and s.session_id <> '' and k.value is not null and k.value <> ''
             and s.session_id in (select session_id from ${events})`;
}

/** Joins an event `e` to the rows `v` of sessionViewValues that count for it. */
export const SAME_SESSION_DAYS = (e: string, v: string) =>
  `${v}.session_id = ${e}.session_id and ${v}.day between ${e}.day - 1 and ${e}.day`;

/**
 * Writes the keys of the clicks and leads of the days from `from` until the local day of `until` (the days over:
 * their sessions' views of the day are all in), replacing those days' keys, and moves session_keys_state to that
 * day's midnight. A run within one day writes nothing.
 */
export async function rollUpSessionKeys(
  db: Queryable,
  from: string,
  until: Date,
  tz: string,
): Promise<number> {
  const [start, end] = [dayStart("$1", "$3", 0), midnight("$2::timestamptz", "$3", 0)];
  await db.query("delete from session_keys where day >= $1::date", [from]);
  const events = Object.entries(KEYED_EVENTS).map(([table, { event, time }]) =>
    `select '${event}' as event, id, session_id, (${time} at time zone $3)::date as day from ${table}
      where ${time} >= ${start} and ${time} < ${end} and session_id <> ''`
  ).join(" union all ");
  const rows = await db.query<{ n: number }>(
    `with e as (${events}),
     v as (${sessionViewValues("e", end)}),
     ins as (
       insert into session_keys (event, filter, value, day, id)
       select distinct e.event, v.filter, v.value, e.day, e.id from e join v on ${SAME_SESSION_DAYS("e", "v")}
       returning 1)
     select count(*)::int as n from ins`,
    [from, until, tz],
  );
  await db.query(
    `insert into session_keys_state (until) values (${midnight("$1::timestamptz", "$2", 0)})
     on conflict (id) do update set until = greatest(session_keys_state.until, excluded.until)`,
    [until, tz],
  );
  return rows[0].n;
}

/** Forgets the keys of the clicks of days before `day` (retention purged them; leads are kept, and theirs). */
export async function forgetClickKeysBefore(db: Queryable, day: string): Promise<void> {
  await db.query("delete from session_keys where event = 'click' and day < $1::date", [day]);
}
