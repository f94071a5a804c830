// "Agora": who is on the site right now, from the raw page views of the last few minutes (the roll-ups lag by
// a couple of minutes). One range scan of visits_occurred_at_idx over those minutes: its cost follows the
// traffic of the last minutes, not the size of the table.
import type { Queryable } from "./client.ts";

export interface LivePage {
  page: string;
  /** Visitors whose latest page view in the window is this page. */
  visitors: number;
}

export interface LiveVisitors {
  /** Distinct visitors (visitor keys) with a page view from `since` to `now`. */
  visitors: number;
  /** Their pages, each visitor on the page of their latest page view; most visitors first. */
  pages: LivePage[];
}

/** Visitors with a page view in [since, now] and the page each is on, the `limit` busiest pages. */
export async function liveVisitors(
  db: Queryable,
  since: Date,
  now: Date,
  limit: number,
): Promise<LiveVisitors> {
  const rows = await db.query<{ page: string; visitors: number; total: number }>(
    `with recent as (
       select distinct on (visitor_key) visitor_key, source from visits
        where occurred_at >= $1 and occurred_at <= $2
        order by visitor_key, occurred_at desc)
     select source as page, count(*)::int as visitors, (sum(count(*)) over ())::int as total
       from recent group by source order by visitors desc, page asc limit $3`,
    [since, now, limit],
  );
  return { visitors: rows[0]?.total ?? 0, pages: rows.map(({ page, visitors }) => ({ page, visitors })) };
}
