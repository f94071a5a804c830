// The lead delivery outbox (migrations/00010): one row per lead and destination.
import type { Queryable } from "./client.ts";

export type Destination = "webhook" | "pipefy" | "trello" | "email" | "whatsapp" | "whatsapp_sales";
export type DeliveryStatus = "pending" | "delivered" | "failed";

/** The lead as a destination receives it (read when sending: the outbox keeps no copy). */
export interface DeliveryLead {
  id: number;
  name: string;
  email: string;
  whatsapp: string;
  plan: string;
  planLabel: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  page: string | null;
  submittedAt: Date;
}

/** A delivery claimed by one worker, with its lead. */
export interface ClaimedDelivery {
  id: number;
  eventId: string;
  attempts: number;
  retrySince: Date;
  /** The number a WhatsApp row goes to (E.164); null for the other destinations. */
  recipient?: string | null;
  lead: DeliveryLead;
}

/** Queues one delivery per destination for a new lead (inside the lead's transaction). */
export async function insertDeliveries(
  db: Queryable,
  leadId: number,
  destinations: Destination[],
  now: Date,
): Promise<void> {
  if (!destinations.length) return;
  await db.query(
    `insert into lead_deliveries (lead_id, destination, event_id, next_attempt_at, created_at, retry_since)
     select $1, d, gen_random_uuid()::text, $3, $3, $3 from unnest($2::text[]) as d
     on conflict do nothing`,
    [leadId, destinations, now],
  );
}

/**
 * Claims up to `limit` due deliveries of one destination: each gets `token` and its next attempt is pushed
 * to `leaseUntil`, so no other instance (nor this one after a crash) sends it before the lease ends;
 * `skip locked` lets instances claim side by side.
 */
export async function claimDueDeliveries(
  db: Queryable,
  destination: Destination,
  now: Date,
  leaseUntil: Date,
  token: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const rows = await db.query<{
    id: number;
    event_id: string;
    attempts: number;
    retry_since: Date;
    recipient: string | null;
    lead_id: number;
    name: string;
    email: string;
    whatsapp: string;
    plan: string;
    plan_label: string;
    utm_source: string | null;
    utm_campaign: string | null;
    utm_medium: string | null;
    page: string | null;
    submitted_at: Date;
  }>(
    `with claimed as (
       update lead_deliveries set next_attempt_at = $3, lease_token = $4
        where id in (
          select id from lead_deliveries
           where destination = $1 and status = 'pending' and next_attempt_at <= $2
           order by next_attempt_at, id
           limit $5
           for update skip locked)
       returning id, event_id, attempts, retry_since, recipient, lead_id)
     select c.id, c.event_id, c.attempts, c.retry_since, c.recipient, c.lead_id, l.name, l.email, l.whatsapp, l.plan,
            l.plan_label, l.utm_source, l.utm_campaign, l.utm_medium, l.page, l.submitted_at
       from claimed c join leads l on l.id = c.lead_id
      order by c.id`,
    [destination, now, leaseUntil, token, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    eventId: r.event_id,
    attempts: r.attempts,
    retrySince: new Date(r.retry_since),
    recipient: r.recipient,
    lead: {
      id: Number(r.lead_id),
      name: r.name,
      email: r.email,
      whatsapp: r.whatsapp,
      plan: r.plan,
      planLabel: r.plan_label,
      utmSource: r.utm_source,
      utmCampaign: r.utm_campaign,
      utmMedium: r.utm_medium,
      page: r.page,
      submittedAt: new Date(r.submitted_at),
    },
  }));
}

// Every outcome is recorded only while the row still carries this worker's lease token: a worker whose
// lease ran out (and whose row another worker took) records nothing.

/** Records a delivery; returns false when the lease was lost meanwhile. */
export async function markDelivered(
  db: Queryable,
  id: number,
  token: string,
  now: Date,
  externalRef: string | null,
): Promise<boolean> {
  const rows = await db.query(
    `update lead_deliveries set status = 'delivered', delivered_at = $3, attempts = attempts + 1,
       lease_token = null, external_ref = $4
     where id = $1 and lease_token = $2 and status = 'pending'
     returning id`,
    [id, token, now, externalRef],
  );
  return rows.length > 0;
}

/** Records a failed attempt: retried at `nextAttemptAt`, or given up for good when that is null. */
export async function markAttemptFailed(
  db: Queryable,
  id: number,
  token: string,
  now: Date,
  error: string,
  nextAttemptAt: Date | null,
): Promise<void> {
  await db.query(
    `update lead_deliveries set attempts = attempts + 1, lease_token = null, last_error = $4,
       last_failure_at = $3,
       status = case when $5::timestamptz is null then 'failed' else 'pending' end,
       next_attempt_at = coalesce($5::timestamptz, next_attempt_at)
     where id = $1 and lease_token = $2 and status = 'pending'`,
    [id, token, now, error.slice(0, 1000), nextAttemptAt],
  );
}

/**
 * Pushes every delivery of the destination that would be due before `nextAttemptAt` to then: the rows this
 * worker claimed and did not try (their lease ends), and the unclaimed ones. Returns how many.
 */
export async function holdDestination(
  db: Queryable,
  destination: Destination,
  token: string,
  nextAttemptAt: Date,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with held as (
       update lead_deliveries set lease_token = null, next_attempt_at = $3
        where destination = $1 and status = 'pending'
          and (lease_token = $2 or (lease_token is null and next_attempt_at < $3))
       returning 1)
     select count(*)::int as n from held`,
    [destination, token, nextAttemptAt],
  );
  return rows[0].n;
}

/**
 * Makes a failed (or retrying) delivery due now, with a fresh retry window. Refused (false) when it was
 * delivered, or while a worker holds it: a resend then could send it twice.
 */
export async function requeueDelivery(
  db: Queryable,
  leadId: number,
  destination: Destination,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `update lead_deliveries set status = 'pending', next_attempt_at = $3, retry_since = $3, attempts = 0
     where lead_id = $1 and destination = $2 and status <> 'delivered'
       and (lease_token is null or next_attempt_at <= $3)
     returning id`,
    [leadId, destination, now],
  );
  return rows.length > 0;
}

/**
 * Where a delivery stands, as the dashboard tells it: `queued` (waiting for its first try), `sending` (a
 * worker holds it now), `retrying` (an attempt failed and the next one is scheduled), `delivered`, or
 * `failed` for good (refused by the destination, or given up after the retry window). The first three are
 * the `pending` status, which the destinations panel counts as such.
 */
export type DeliveryState = "queued" | "sending" | "retrying" | "delivered" | "failed";

/** One delivery as the dashboard shows it. */
export interface DeliveryView {
  leadId: number;
  destination: Destination;
  status: DeliveryStatus;
  state: DeliveryState;
  /** Attempts made so far. */
  attempts: number;
  /** While pending: the number of the next attempt (or of the one under way); null once settled. */
  nextAttempt: number | null;
  deliveredAt: string | null;
  /** While pending: when the next attempt is due (under way: when its lease ends). */
  nextAttemptAt: string | null;
  lastError: string | null;
  lastFailureAt: string | null;
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The deliveries of these leads, with their state at `now`. */
export async function deliveriesOfLeads(
  db: Queryable,
  leadIds: number[],
  now: Date,
): Promise<DeliveryView[]> {
  const rows = await db.query<DeliveryView>(
    `select lead_id as "leadId", destination, status,
            case when status <> 'pending' then status
                 when lease_token is not null and next_attempt_at > $2 then 'sending'
                 when attempts > 0 then 'retrying'
                 else 'queued' end as state,
            attempts, case when status = 'pending' then attempts + 1 end as "nextAttempt",
            ${iso("delivered_at")} as "deliveredAt",
            case when status = 'pending' then ${iso("next_attempt_at")} end as "nextAttemptAt",
            last_error as "lastError", ${iso("last_failure_at")} as "lastFailureAt"
       from lead_deliveries where lead_id = any($1::bigint[])
      order by lead_id, destination`,
    [leadIds, now],
  );
  return rows.map((r) => ({ ...r, leadId: Number(r.leadId) }));
}

/** Per destination: last success, last failure and its reason, how many wait and how many failed. */
export interface DestinationHealth {
  destination: Destination;
  lastDeliveredAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  pending: number;
  failed: number;
}

export async function destinationHealth(
  db: Queryable,
  destinations: Destination[],
): Promise<DestinationHealth[]> {
  const rows = await db.query<DestinationHealth>(
    `select d as destination,
            (select ${
      iso("max(delivered_at)")
    } from lead_deliveries where destination = d) as "lastDeliveredAt",
            f.at as "lastFailureAt", f.error as "lastError",
            (select count(*)::int from lead_deliveries where destination = d and status = 'pending') as pending,
            (select count(*)::int from lead_deliveries where destination = d and status = 'failed') as failed
       from unnest($1::text[]) with ordinality as t(d, n)
       left join lateral (
         select ${iso("last_failure_at")} as at, last_error as error from lead_deliveries
          where destination = d and last_failure_at is not null
          order by last_failure_at desc limit 1) f on true
      order by n`,
    [destinations],
  );
  return rows;
}
