// Whether each lead destination is failing (migrations/00014, lead_destination_alerts).
import type { Queryable } from "./client.ts";

/** Failed attempts in a row (across leads and instances) after which a destination counts as failing. */
export const FAILING_AFTER = 2;

/**
 * Counts one delivery attempt: a failure adds to the destination's failures in a row, a success resets
 * them. True when this attempt changed the destination's state (the failure that made it failing, the
 * success that ended it): exactly one attempt does, whichever instance made it.
 */
export async function noteDeliveryOutcome(
  q: Queryable,
  destination: string,
  delivered: boolean,
  at: Date,
): Promise<boolean> {
  if (delivered) {
    // Nothing is written while the destination is healthy (no row, or none in a row).
    const rows = await q.query<{ recovered: boolean }>(
      `with before as (
         select destination, failing from lead_destination_alerts
          where destination = $1 and failures_in_a_row > 0 for update)
       update lead_destination_alerts a
          set failures_in_a_row = 0, failing = false,
              changed_at = case when before.failing then $2 else a.changed_at end
         from before where a.destination = before.destination
       returning before.failing as recovered`,
      [destination, at],
    );
    return rows[0]?.recovered === true;
  }
  const rows = await q.query<{ n: number }>(
    `insert into lead_destination_alerts as a (destination, failures_in_a_row, failing, changed_at)
     values ($1, 1, $3 <= 1, $2)
     on conflict (destination) do update
       set failures_in_a_row = a.failures_in_a_row + 1,
           failing = a.failing or a.failures_in_a_row + 1 >= $3,
           changed_at = case when a.failures_in_a_row + 1 = $3 then excluded.changed_at else a.changed_at end
     returning failures_in_a_row as n`,
    [destination, at, FAILING_AFTER],
  );
  return rows[0].n === FAILING_AFTER;
}

/** The destinations failing now, with since when (ISO). */
export async function failingDestinations(q: Queryable): Promise<{ destination: string; since: string }[]> {
  return await q.query(
    `select destination, to_char(changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as since
       from lead_destination_alerts where failing order by destination`,
  );
}
