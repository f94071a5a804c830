// Whole months of the day roll-ups whose days have many rows (migrations/00038_monthly_rollups.sql,
// docs/ANALYTICS.md "Months"): the visits per ranking key and the page views and visible time per page. A page
// key is a path and its query, so every day has hundreds of them; a month's pages ranking or "Tempo na página"
// added up 19,000 day rows at 10,000,000 visits, and about twice as many days' rows as at 1,000,000 visits.
// A month row is its month's day rows added up, as they are: up to the roll-up's last day, which is partial
// like its day rows. A reading takes the months of its range that a month row answers exactly, and the day
// rows of the other days (MONTH_SPLIT).
import type { Queryable } from "./client.ts";

/**
 * After splitWith's CTEs (db/dashboard_queries.ts, st0 and b): the CTE `bm`, b with the months [ms, me) a month
 * row answers: those that start on or after b.s and whose rolled days all fall in b.s..b.re (the month ends
 * by b.re, or b.re is the roll-up's last day). None when ms = me.
 */
export const MONTH_SPLIT = `bm as (
    select b.*, m.ms, greatest(m.ms, m.me) as me from b, st0, lateral (select
      (date_trunc('month', (b.s - 1)::timestamp) + interval '1 month')::date as ms,
      case when b.re >= st0.through then (date_trunc('month', b.re::timestamp) + interval '1 month')::date
           else date_trunc('month', (b.re + 1)::timestamp)::date end as me) m)`;
/** The month rows of the range (needs bm). */
export const ROLLED_MONTHS = "month >= bm.ms and month < bm.me";
/** The day rows of the range's other rolled days (needs bm). */
export const ROLLED_DAYS =
  "(day between bm.s and least(bm.re, bm.ms - 1) or day between greatest(bm.s, bm.me) and bm.re)";

/** The month tables, each with the day table it adds up and the columns it sums. */
const MONTHS = [
  { month: "monthly_visit_ranks", day: "daily_visit_ranks", keys: ["dimension", "key"], sums: ["visits"] },
  {
    month: "monthly_page_engagement",
    day: "daily_page_engagement",
    keys: ["page"],
    sums: ["views", "engaged_ms"],
  },
];

/**
 * Rewrites the months from the month of `from` on from their day rows. The roll-up job calls it after
 * rewriting the day rows from `from` on, in the same transaction.
 */
export async function rollUpMonths(db: Queryable, from: string): Promise<void> {
  for (const t of MONTHS) {
    const columns = [...t.keys, ...t.sums];
    await db.query(`delete from ${t.month} where month >= date_trunc('month', $1::date)`, [from]);
    await db.query(
      `insert into ${t.month} (month, ${columns.join(", ")})
       select date_trunc('month', day)::date, ${t.keys.join(", ")}, ${
        t.sums.map((s) => `sum(${s})`).join(", ")
      }
         from ${t.day} where day >= date_trunc('month', $1::date) group by ${
        t.keys.map((_, i) => i + 2).concat(1)
      }`,
      [from],
    );
  }
}
