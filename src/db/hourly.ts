// One local day hour by hour, for the dashboard's chart of a one-day period. Roll-ups are daily, so the hours
// come from the raw rows (kept for RETENTION_DAYS): one index range scan per table over the day. An hour is an
// hour of elapsed time from the day's local midnight, so a day with a clock change in ANALYTICS_TZ has 23 or 25
// of them (or 23.5 / 24.5: the last one is cut at the next midnight) and every event falls in exactly one.
import type { Queryable } from "./client.ts";

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

// $1 the local day, $2 the time zone.
const DAY_START = "($1::date::timestamp at time zone $2)";
const DAY_END = "(($1::date + 1)::timestamp at time zone $2)";
const IN_DAY = (column: string) => `${column} >= ${DAY_START} and ${column} < ${DAY_END}`;
const HOUR_OF = (column: string) => `floor(extract(epoch from ${column} - ${DAY_START}) / 3600)::int`;

/** Every hour of local day `day` in `tz`, oldest first, with its counts from the raw rows. */
export async function hourlyCounts(db: Queryable, day: string, tz: string): Promise<HourlyRow[]> {
  const rows = await db.query<HourlyRow>(
    `with hours as (
       select i, ${DAY_START} + make_interval(hours => i) as start
         from generate_series(0, ceil(extract(epoch from ${DAY_END} - ${DAY_START}) / 3600)::int - 1) i),
     v as (select ${HOUR_OF("occurred_at")} as i, count(distinct visitor_key) as n
             from visits where ${IN_DAY("occurred_at")} group by 1),
     c as (select ${HOUR_OF("occurred_at")} as i, count(*) filter (where kind = 'plan') as plan,
                  count(*) filter (where kind = 'whatsapp') as wa
             from clicks where ${IN_DAY("occurred_at")} group by 1),
     l as (select ${HOUR_OF("submitted_at")} as i, count(*) as n
             from leads where ${IN_DAY("submitted_at")} group by 1)
     select hours.start, to_char(hours.start at time zone $2, 'HH24:MI') as label,
            coalesce(v.n, 0)::int as visits, coalesce(c.plan, 0)::int as clicks,
            coalesce(c.wa, 0)::int as "whatsappClicks", coalesce(l.n, 0)::int as leads
       from hours left join v using (i) left join c using (i) left join l using (i)
      order by hours.i`,
    [day, tz],
  );
  return rows.map((r) => ({ ...r, start: new Date(r.start) }));
}
