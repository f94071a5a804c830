// WhatsApp (migrations/00019): the lead's consent and E.164 number, its template message and the sales
// notifications in the one outbox (lead_deliveries, destinations `whatsapp` and `whatsapp_sales`), what
// Meta's webhook reports of each message, and when the lead first wrote back. Never a message's text.
import type { Queryable } from "./client.ts";

/** Stores the consent (time and text version shown) and the normalised number with a new lead. */
export async function setLeadWhatsapp(
  db: Queryable,
  leadId: number,
  fields: { consentAt: Date | null; consentVersion: string | null; e164: string | null },
): Promise<void> {
  await db.query(
    `update leads set whatsapp_consent_at = $2, whatsapp_consent_version = $3, whatsapp_e164 = $4 where id = $1`,
    [leadId, fields.consentAt, fields.consentVersion, fields.e164],
  );
}

export interface WhatsappRow {
  destination: "whatsapp" | "whatsapp_sales";
  recipient: string | null;
  /** Set when the row can never be sent (an invalid number): it is stored failed with this reason. */
  failedReason?: string;
}

/** Queues the lead's WhatsApp rows (inside the lead's transaction). */
export async function insertWhatsappDeliveries(
  db: Queryable,
  leadId: number,
  rows: WhatsappRow[],
  now: Date,
): Promise<void> {
  for (const row of rows) {
    await db.query(
      `insert into lead_deliveries (lead_id, destination, recipient, event_id, next_attempt_at, created_at,
         retry_since, status, last_error, last_failure_at)
       values ($1, $2, $3, gen_random_uuid()::text, $4, $4, $4, case when $5::text is null then 'pending' else 'failed' end,
         $5, case when $5::text is null then null else $4::timestamptz end)
       on conflict do nothing`,
      [leadId, row.destination, row.recipient, now, row.failedReason ?? null],
    );
  }
}

export type WhatsappStatus = "sent" | "delivered" | "read" | "failed";

/**
 * Records one status of a message we sent (found by its id): only its first time is kept, so a webhook Meta
 * delivers twice changes nothing. True when something changed.
 */
export async function recordMessageStatus(
  db: Queryable,
  wamid: string,
  status: WhatsappStatus,
  at: Date,
  error: string | null,
): Promise<boolean> {
  const column =
    { sent: "wa_sent_at", delivered: "wa_delivered_at", read: "wa_read_at", failed: "wa_failed_at" }[
      status
    ];
  const rows = await db.query(
    `update lead_deliveries set ${column} = $2,
       wa_error = case when $4 then coalesce(wa_error, $3) else wa_error end
     where external_ref = $1 and destination in ('whatsapp', 'whatsapp_sales') and ${column} is null
     returning id`,
    [wamid, at, error?.slice(0, 500) ?? null, status === "failed"],
  );
  return rows.length > 0;
}

/**
 * Records that a lead wrote back (the sender's number in its E.164 forms): the first reply's time, on the
 * leads with that number whose message went out before it. Returns how many leads changed.
 */
export async function recordReply(db: Queryable, numbers: string[], at: Date): Promise<number> {
  if (!numbers.length) return 0;
  const rows = await db.query(
    `update leads l set whatsapp_replied_at = $2
      where l.whatsapp_e164 = any($1::text[]) and l.whatsapp_replied_at is null
        and exists (select 1 from lead_deliveries d
                     where d.lead_id = l.id and d.destination = 'whatsapp' and d.status = 'delivered'
                       and d.delivered_at <= $2)
     returning l.id`,
    [numbers, at],
  );
  return rows.length;
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A lead's WhatsApp facts, as the lead card and the LGPD export show them. */
export interface LeadWhatsapp {
  leadId: number;
  consentAt: string | null;
  consentVersion: string | null;
  e164: string | null;
  /** The lead's message: pending, delivered (accepted by Meta) or failed; null when none was queued. */
  status: "pending" | "delivered" | "failed" | null;
  error: string | null;
  acceptedAt: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
  repliedAt: string | null;
}

export async function whatsappOfLeads(db: Queryable, leadIds: number[]): Promise<LeadWhatsapp[]> {
  if (!leadIds.length) return [];
  const rows = await db.query<LeadWhatsapp>(
    `select l.id as "leadId", ${iso("l.whatsapp_consent_at")} as "consentAt",
            l.whatsapp_consent_version as "consentVersion", l.whatsapp_e164 as e164,
            d.status, coalesce(d.wa_error, d.last_error) as error, ${iso("d.delivered_at")} as "acceptedAt",
            ${iso("d.wa_sent_at")} as "sentAt", ${iso("d.wa_delivered_at")} as "deliveredAt",
            ${iso("d.wa_read_at")} as "readAt", ${iso("d.wa_failed_at")} as "failedAt",
            ${iso("l.whatsapp_replied_at")} as "repliedAt"
       from leads l
       left join lead_deliveries d on d.lead_id = l.id and d.destination = 'whatsapp'
      where l.id = any($1::bigint[])
      order by l.id`,
    [leadIds],
  );
  return rows.map((r) => ({ ...r, leadId: Number(r.leadId) }));
}

/** Median and 90th percentile in seconds, null when nothing was measured. */
export interface Spread {
  count: number;
  p50: number | null;
  p90: number | null;
}

export interface FirstContactStats {
  /** Leads of the period whose WhatsApp message was accepted by Meta. */
  messaged: number;
  toDelivered: Spread;
  toReply: Spread;
  /** Per channel of the lead's last touch: messaged leads and those who replied. */
  channels: Array<{ channel: string; messaged: number; replied: number }>;
}

/**
 * Time from lead to message delivered and to the lead's reply, over the leads submitted in the local days of
 * `range` (in `tz`) whose message Meta accepted; and per channel of the lead's last touch, how many of them
 * replied.
 */
export async function firstContactStats(
  db: Queryable,
  range: { start: string; end: string },
  tz: string,
): Promise<FirstContactStats> {
  const spread = (expr: string) =>
    `count(${expr})::int, percentile_cont(0.5) within group (order by ${expr}),
     percentile_cont(0.9) within group (order by ${expr})`;
  const messaged = `from leads l join lead_deliveries d on d.lead_id = l.id and d.destination = 'whatsapp'
      where l.submitted_at >= ($1::date::timestamp at time zone $3)
        and l.submitted_at < (($2::date + 1)::timestamp at time zone $3) and d.status = 'delivered'`;
  const params = [range.start, range.end, tz];
  const [row] = await db.query<{ messaged: number; d: unknown; r: unknown }>(
    `with m as (
       select extract(epoch from d.wa_delivered_at - l.submitted_at)::float8 as to_delivered,
              extract(epoch from l.whatsapp_replied_at - l.submitted_at)::float8 as to_reply
         ${messaged})
     select count(*)::int as messaged,
            json_build_array(${spread("to_delivered")}) as d,
            json_build_array(${spread("to_reply")}) as r
       from m`,
    params,
  );
  const channels = await db.query<{ channel: string; messaged: number; replied: number }>(
    `select coalesce(l.last_channel, 'unassigned') as channel, count(*)::int as messaged,
            count(l.whatsapp_replied_at)::int as replied
       ${messaged}
      group by 1 order by messaged desc, channel`,
    params,
  );
  const toSpread = (a: unknown): Spread => {
    const [count, p50, p90] = (typeof a === "string" ? JSON.parse(a) : a) as [
      number,
      number | null,
      number | null,
    ];
    return { count, p50: p50 === null ? null : Math.round(p50), p90: p90 === null ? null : Math.round(p90) };
  };
  return { messaged: row.messaged, toDelivered: toSpread(row.d), toReply: toSpread(row.r), channels };
}
