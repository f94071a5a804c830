import type { Queryable } from "./client.ts";

/** Adds one hit to a fixed window and returns the window's count after it. */
export async function incrementWindow(db: Queryable, bucket: string, windowStart: Date): Promise<number> {
  const rows = await db.query<{ hits: number }>(
    `insert into rate_limits (bucket, window_start, hits) values ($1, $2, 1)
     on conflict (bucket, window_start) do update set hits = rate_limits.hits + 1
     returning hits`,
    [bucket, windowStart],
  );
  return rows[0].hits;
}

/** Deletes windows that started before `before`; returns how many. */
export async function purgeWindows(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "with d as (delete from rate_limits where window_start < $1 returning 1) select count(*)::int as n from d",
    [before],
  );
  return rows[0].n;
}
