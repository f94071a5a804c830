// Queries behind the LGPD tools: one data subject's leads, found by e-mail or phone, exported or erased.
import type { PersonLead } from "../shared/schemas.ts";
import type { Queryable } from "./client.ts";
import { changeRolledLeads } from "./lead_totals.ts";
import { forgetLeadKeys } from "./filter_leads.ts";

// One lead as the LGPD tools show and export it: its shape lives with the API contract.
export type { PersonLead };

const COLUMNS = `id, name, email, whatsapp, plan, plan_label as "planLabel", utm_source as "utmSource",
  utm_campaign as "utmCampaign", utm_medium as "utmMedium", utm_content as "utmContent", utm_term as "utmTerm",
  page, null as state, device, browser, os, country, region,
  to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "submittedAt"`;

/**
 * Leads whose e-mail equals `email`, ignoring case, surrounding spaces and how accents were typed (é as one
 * character or e plus a combining accent: both sides in Unicode NFC); oldest first.
 */
export async function leadsByEmail(db: Queryable, email: string): Promise<PersonLead[]> {
  const rows = await db.query<PersonLead>(
    `select ${COLUMNS} from leads
      where lower(normalize(trim(email), NFC)) = lower(normalize(trim($1), NFC))
      order by submitted_at, id`,
    [email],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Leads whose WhatsApp number, digits only, is one of `digitForms`; oldest first. */
export async function leadsByPhoneDigits(db: Queryable, digitForms: string[]): Promise<PersonLead[]> {
  const rows = await db.query<PersonLead>(
    `select ${COLUMNS} from leads where regexp_replace(whatsapp, '\\D', '', 'g') = any($1::text[])
      order by submitted_at, id`,
    [digitForms],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * Deletes leads by id and takes them out of the leads' roll-up (`tz`: the analytics time zone, whose days it
 * counts); returns the e-mail and WhatsApp of each deleted row (to find their Meta events).
 */
export async function deleteLeadsById(
  db: Queryable,
  ids: number[],
  tz: string,
): Promise<Array<{ id: number; email: string; whatsapp: string }>> {
  await changeRolledLeads(db, ids, -1, tz);
  // The pages and UTM values its session had (migrations/00029) go with the lead, and their sums with them.
  await forgetLeadKeys(db, ids);
  const rows = await db.query<{ id: number; email: string; whatsapp: string }>(
    "delete from leads where id = any($1::bigint[]) returning id, email, whatsapp",
    [ids],
  );
  return rows.map((r) => ({ id: Number(r.id), email: r.email, whatsapp: r.whatsapp }));
}

/** Deletes Meta outbox events (pending or sent) whose hashed e-mail or phone is one of the given hashes. */
export async function deleteMetaEventsByHashes(
  db: Queryable,
  emailHashes: string[],
  phoneHashes: string[],
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with d as (
       delete from meta_outbox
        where coalesce(payload->'user_data'->'em', '[]'::jsonb) ?| $1::text[]
           or coalesce(payload->'user_data'->'ph', '[]'::jsonb) ?| $2::text[]
       returning 1)
     select count(*)::int as n from d`,
    [emailHashes, phoneHashes],
  );
  return rows[0].n;
}
