import type { Queryable } from "./client.ts";

/** Records one failed login for a client key and an account (the e-mail as typed, lower-cased). */
export async function insertLoginFailure(
  db: Queryable,
  clientKey: string,
  account: string,
  at: Date,
): Promise<void> {
  await db.query("insert into login_failures (client_key, account, occurred_at) values ($1, $2, $3)", [
    clientKey,
    account,
    at,
  ]);
}

/** Times of the latest `limit` failures of a client key since `since`, newest first. */
export async function recentFailuresByClient(
  db: Queryable,
  clientKey: string,
  since: Date,
  limit: number,
): Promise<Date[]> {
  const rows = await db.query<{ occurred_at: Date }>(
    `select occurred_at from login_failures where client_key = $1 and occurred_at > $2
      order by occurred_at desc limit $3`,
    [clientKey, since, limit],
  );
  return rows.map((r) => new Date(r.occurred_at));
}

/** Times of the latest `limit` failures against an account since `since`, newest first. */
export async function recentFailuresByAccount(
  db: Queryable,
  account: string,
  since: Date,
  limit: number,
): Promise<Date[]> {
  const rows = await db.query<{ occurred_at: Date }>(
    `select occurred_at from login_failures where account = $1 and occurred_at > $2
      order by occurred_at desc limit $3`,
    [account, since, limit],
  );
  return rows.map((r) => new Date(r.occurred_at));
}

/** Deletes failures older than `before` (they no longer count); returns how many. */
export async function purgeLoginFailures(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "with d as (delete from login_failures where occurred_at < $1 returning 1) select count(*)::int as n from d",
    [before],
  );
  return rows[0].n;
}
