// LGPD data-subject requests (Lei 13.709/2018, art. 18): find a person's leads by e-mail or phone, give
// them a copy, erase them for good — including the Meta events queued or kept for those leads, and their
// deliveries to the sales team's destinations and the lead's WhatsApp message (lead_deliveries rows go with the
// lead: on delete cascade); the WhatsApp consent, number and reply time are columns of the lead itself.
import { leadState } from "../shared/br_states.ts";
import type { Db } from "../db/client.ts";
import {
  deleteLeadsById,
  deleteMetaEventsByHashes,
  leadsByEmail,
  leadsByPhoneDigits,
  type PersonLead,
} from "../db/lgpd.ts";
import { normalizeEmail, normalizePhone, sha256Hex } from "./meta_event.ts";
import { whatsappContacts } from "./whatsapp_contact.ts";

/** Who the request is about: exactly one of the two. */
export type Subject = { email: string; phone?: undefined } | { phone: string; email?: undefined };

/**
 * The digit strings a stored number may have for this phone: as typed, in the international form with 55
 * and without it (people type "(11) 98765-4321" in one form and "+55 11 98765-4321" in another).
 */
export function phoneForms(phone: string): string[] {
  const forms = new Set<string>();
  const digits = phone.replace(/\D/g, "");
  if (digits) forms.add(digits);
  const international = normalizePhone(phone);
  if (international) {
    forms.add(international);
    if (/^55\d{10,11}$/.test(international)) forms.add(international.slice(2));
  }
  return [...forms];
}

/**
 * Every lead of the person, oldest first, with its WhatsApp consent (time and text version), normalised
 * number, message statuses and reply time when any was recorded.
 */
export async function findPersonLeads(db: Db, subject: Subject): Promise<PersonLead[]> {
  const leads = subject.email !== undefined
    ? await leadsByEmail(db, subject.email)
    : await leadsByPhoneDigits(db, phoneForms(subject.phone));
  const contacts = await whatsappContacts(db, leads.map((l) => l.id), false);
  return leads.map((l) => ({ ...l, whatsappContact: contacts.get(l.id) ?? null }));
}

export interface PersonExport {
  exportedAt: string;
  subject: Subject;
  /** Where the data came from and what else is (not) kept, in the dashboard's language. */
  notice: string;
  leads: PersonLead[];
}

/** A machine-readable copy of everything stored about the person (LGPD art. 18, II and V). */
export async function exportPerson(db: Db, subject: Subject, now: Date): Promise<PersonExport> {
  return {
    exportedAt: now.toISOString(),
    subject,
    notice:
      "Dados enviados pelo formulário de planos do site. Visitas e cliques são registrados apenas com " +
      "uma chave pseudônima mensal, sem endereço IP, e não podem ser associados a esta pessoa. Derivados: o " +
      "estado do DDD do WhatsApp e, da visita que enviou o formulário, tipo de dispositivo, navegador, " +
      "sistema, país e estado (o endereço IP e o navegador exato não são guardados).",
    // Each lead with the state its WhatsApp number's DDD names (derived, not stored).
    leads: (await findPersonLeads(db, subject)).map((l) => ({ ...l, state: leadState(l.whatsapp, l.page) })),
  };
}

/**
 * Deletes the given leads and the Meta events that carry their hashed e-mail or phone, in one transaction;
 * `tz` is the analytics time zone (the leads' roll-up counts its days).
 */
export async function eraseLeads(
  db: Db,
  ids: number[],
  tz: string,
): Promise<{ leads: number; metaEvents: number }> {
  return await db.transaction(async (tx) => {
    const deleted = await deleteLeadsById(tx, ids, tz);
    if (!deleted.length) return { leads: 0, metaEvents: 0 };
    const emails = await Promise.all(deleted.map((l) => sha256Hex(normalizeEmail(l.email))));
    const phones = await Promise.all(
      deleted.map((l) => normalizePhone(l.whatsapp)).filter((p): p is string => Boolean(p)).map(sha256Hex),
    );
    return { leads: deleted.length, metaEvents: await deleteMetaEventsByHashes(tx, emails, phones) };
  });
}
