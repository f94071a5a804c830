import type { Queryable } from "./client.ts";

/**
 * Serialises sign-in attempts from one client and against one account until the transaction ends, so the
 * failures counted and the one reserved next cannot interleave with a parallel attempt's (PGlite has one
 * connection anyway). Always client, then account: two attempts never wait for each other crosswise.
 */
export async function lockLoginAttempt(tx: Queryable, clientKey: string, account: string): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(hashtext('login-client:' || $1))", [clientKey]);
  await tx.query("select pg_advisory_xact_lock(hashtext('login-account:' || $1))", [account]);
}

export interface FailureCounts {
  /** Times of the latest failures of this client from browsers without a device token, newest first. */
  client: Date[];
  /** Times of the latest failures under this device token, newest first (empty without one). */
  device: Date[];
  /** How many failures the account had from browsers without a device token, and the latest one. */
  account: number;
  accountLatest: Date | null;
}

/** Failures since `since` that count against a client, a device token and an account. */
export async function loginFailureCounts(
  db: Queryable,
  key: { clientKey: string; account: string; device: string | null },
  since: Date,
  limit: number,
): Promise<FailureCounts> {
  const [client, device, [account]] = await Promise.all([
    db.query<{ occurred_at: Date }>(
      `select occurred_at from login_failures where client_key = $1 and device is null and occurred_at > $2
        order by occurred_at desc limit $3`,
      [key.clientKey, since, limit],
    ),
    key.device
      ? db.query<{ occurred_at: Date }>(
        `select occurred_at from login_failures where device = $1 and occurred_at > $2
          order by occurred_at desc limit $3`,
        [key.device, since, limit],
      )
      : Promise.resolve([]),
    db.query<{ n: number; latest: Date | null }>(
      `select count(*)::int as n, max(occurred_at) as latest from login_failures
        where account = $1 and device is null and occurred_at > $2`,
      [key.account, since],
    ),
  ]);
  return {
    client: client.map((r) => new Date(r.occurred_at)),
    device: device.map((r) => new Date(r.occurred_at)),
    account: account.n,
    accountLatest: account.latest ? new Date(account.latest) : null,
  };
}

/** Records one failed (or not yet checked) login; returns its id. */
export async function insertLoginFailure(
  db: Queryable,
  failure: { clientKey: string; account: string; device: string | null; at: Date },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into login_failures (client_key, account, device, occurred_at) values ($1, $2, $3, $4)
      returning id::int as id`,
    [failure.clientKey, failure.account, failure.device, failure.at],
  );
  return row.id;
}

/** Deletes a reserved failure: the password it reserved was right. */
export async function deleteLoginFailure(db: Queryable, id: number): Promise<void> {
  await db.query("delete from login_failures where id = $1", [id]);
}

/** Deletes failures older than `before` (they no longer count); returns how many. */
export async function purgeLoginFailures(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "with d as (delete from login_failures where occurred_at < $1 returning 1) select count(*)::int as n from d",
    [before],
  );
  return rows[0].n;
}

/** Stores a device token's id (SHA-256 of the token) for an account. */
export async function insertLoginDevice(db: Queryable, id: string, account: string, at: Date): Promise<void> {
  await db.query(
    "insert into login_devices (id, account, created_at) values ($1, $2, $3) on conflict (id) do nothing",
    [id, account, at],
  );
}

/** The account a device token id was issued for, if it is still valid (issued after `since`). */
export async function loginDeviceAccount(db: Queryable, id: string, since: Date): Promise<string | null> {
  const rows = await db.query<{ account: string }>(
    "select account from login_devices where id = $1 and created_at > $2",
    [id, since],
  );
  return rows[0]?.account ?? null;
}

/** Deletes device tokens issued before `before`; returns how many. */
export async function purgeLoginDevices(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "with d as (delete from login_devices where created_at < $1 returning 1) select count(*)::int as n from d",
    [before],
  );
  return rows[0].n;
}
