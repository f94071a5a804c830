import type { Queryable } from "./client.ts";

/** The salt of a month ('2026-11'), created at random on first use; concurrent callers get the same one. */
export async function monthSalt(db: Queryable, month: string): Promise<Uint8Array> {
  const fresh = crypto.getRandomValues(new Uint8Array(32));
  await db.query("insert into visitor_salts (month, salt) values ($1, $2) on conflict (month) do nothing", [
    month,
    fresh,
  ]);
  const rows = await db.query<{ salt: Uint8Array }>("select salt from visitor_salts where month = $1", [
    month,
  ]);
  return new Uint8Array(rows[0].salt);
}

/** Destroys salts of months before `month` (so old visitor keys can never be recomputed). */
export async function destroySaltsBefore(db: Queryable, month: string): Promise<number> {
  const rows = await db.query("delete from visitor_salts where month < $1 returning month", [month]);
  return rows.length;
}

/** The salts of those months that still have one (never creates one: a destroyed salt stays destroyed). */
export async function existingMonthSalts(db: Queryable, months: string[]): Promise<Map<string, Uint8Array>> {
  const rows = await db.query<{ month: string; salt: Uint8Array }>(
    "select month, salt from visitor_salts where month = any($1::text[])",
    [months],
  );
  return new Map(rows.map((r) => [r.month, new Uint8Array(r.salt)]));
}
