// WhatsApp clicks (migrations/00017): clicks of kind 'whatsapp', counted apart from the plan clicks. Like every
// dashboard query (src/db/dashboard_queries.ts), each splits its range at the roll-up watermark in its own statement:
// the roll-ups' whatsapp_clicks columns before it, the raw rows after it. Each takes only the period, so a
// filter can be added to them as to the others.
import {
  type DailyCount,
  type DayRange,
  RAW,
  ROLLED,
  ROLLUP_DAY,
  SPLIT,
  splitWith,
} from "./dashboard_queries.ts";
import type { Queryable } from "./client.ts";
import type { RankItem } from "./rankings.ts";

const RAW_WHATSAPP = `${RAW("occurred_at")} and kind = 'whatsapp'`;

/** WhatsApp clicks per local day in the range (days without any are absent). */
export async function dailyWhatsappClicks(db: Queryable, range: DayRange, tz: string): Promise<DailyCount[]> {
  return await db.query<DailyCount>(
    `with ${SPLIT}
     select date, sum(n)::int as count from (
       select to_char((occurred_at at time zone $3)::date, 'YYYY-MM-DD') as date, count(*) as n
         from clicks, b where ${RAW_WHATSAPP} group by 1
       union all
       select ${ROLLUP_DAY}, whatsapp_clicks from daily_totals, b where ${ROLLED} and whatsapp_clicks > 0
     ) t group by 1 order by 1`,
    [range.start, range.end, tz],
  );
}

/**
 * WhatsApp clicks of a period; with `until` (a local time of day, HH:mm:ss), only those of its last day before
 * that time (the comparison with a day still under way).
 */
export async function whatsappClickTotal(
  db: Queryable,
  range: DayRange,
  tz: string,
  until: string | null = null,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with ${splitWith("$4")}
     select ((select count(*) from clicks, b where ${RAW_WHATSAPP})
       + (select coalesce(sum(whatsapp_clicks), 0) from daily_totals, b where ${ROLLED}))::int as n`,
    [range.start, range.end, tz, until],
  );
  return rows[0].n;
}

/** WhatsApp clicks per channel in the range (clicks without a channel are left out). */
export async function whatsappByChannel(
  db: Queryable,
  range: DayRange,
  tz: string,
): Promise<{ channel: string; whatsappClicks: number }[]> {
  return await db.query(
    `with ${SPLIT}
     select channel, sum(c)::int as "whatsappClicks" from (
       select channel, count(*) as c from clicks, b where ${RAW_WHATSAPP} and channel is not null group by 1
       union all
       select channel, whatsapp_clicks from daily_channel_actions, b where ${ROLLED} and whatsapp_clicks > 0
     ) t group by channel`,
    [range.start, range.end, tz],
  );
}

/** WhatsApp clicks per UTM source in the range (null: no UTM source). */
export async function whatsappBySource(
  db: Queryable,
  range: DayRange,
  tz: string,
): Promise<{ utmSource: string | null; whatsappClicks: number }[]> {
  return await db.query(
    `with ${SPLIT}
     select s as "utmSource", sum(c)::int as "whatsappClicks" from (
       select nullif(utm_source, '') as s, count(*) as c from clicks, b where ${RAW_WHATSAPP} group by 1
       union all
       select nullif(utm_source, ''), whatsapp_clicks from daily_source_actions, b
        where ${ROLLED} and whatsapp_clicks > 0
     ) t group by s`,
    [range.start, range.end, tz],
  );
}

/** The pages with the most WhatsApp clicks in the range (`visits` holds the clicks). */
export async function topWhatsappPages(
  db: Queryable,
  range: DayRange,
  tz: string,
  limit: number,
): Promise<RankItem[]> {
  return await db.query<RankItem>(
    `with ${SPLIT}
     select key, sum(n)::int as visits from (
       select source as key, count(*) as n from clicks, b where ${RAW_WHATSAPP} and source <> '' group by 1
       union all
       select key, visits from daily_visit_ranks, b where ${ROLLED} and dimension = 'whatsapp_page'
     ) t group by key order by visits desc, key asc limit $4`,
    [range.start, range.end, tz, limit],
  );
}
