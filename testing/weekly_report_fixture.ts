// Two seeded weeks for the weekly report's tests (src/services/weekly_report_test.ts, e2e/weekly_report_test.ts).
import type { Db } from "../src/db/client.ts";
import { insertClick, insertLead, insertVisit, insertWhatsappClick, sp } from "./analytics_fixture.ts";

export const LEADS = [
  { name: "Maria Souza", email: "maria.souza@empresa.com.br", whatsapp: "(11) 98765-4321" },
  { name: "João Lima", email: "joao.lima@exemplo.com", whatsapp: "+55 21 99876-5432" },
  { name: "Ana Reis", email: "ana.reis@antes.com.br", whatsapp: "(31) 91234-5678" },
];

/**
 * Week 47 (16–22 Nov 2026): 1,212 page views by 8 visitors (1,207 from Google, organic search, on /pt-br;
 * 5 from Instagram ads on /pt-br/pipefy), 4 plan clicks, 3 WhatsApp clicks, 2 leads (one with a failed
 * delivery). Week 46: 6 page views by 5 visitors, 2 plan clicks, 1 WhatsApp click, 1 lead.
 */
export async function seedWeeks(db: Db) {
  const google = { trafficSource: "google", channel: "organic_search", entry: true };
  const instagram = { trafficSource: "instagram", channel: "paid_social", entry: true };
  for (let i = 0; i < 7; i++) {
    await insertVisit(db, sp(`2026-11-${16 + (i % 5)}T10:0${i}:00`), `k${i % 3}`, "/pt-br", {}, google);
  }
  await db.query(
    `insert into visits (occurred_at, visitor_key, source, traffic_source, channel, entry)
     select $1::timestamptz + g * interval '1 second', 'k0', '/pt-br', 'google', 'organic_search', true
       from generate_series(1, 1200) g`,
    [sp("2026-11-18T15:00:00")],
  );
  for (let i = 0; i < 5; i++) {
    await insertVisit(db, sp(`2026-11-2${i % 3}T11:00:00`), `i${i}`, "/pt-br/pipefy", {
      utmSource: "instagram",
      utmMedium: "paid",
    }, instagram);
  }
  for (let i = 0; i < 4; i++) await insertClick(db, sp(`2026-11-17T12:0${i}:00`), {}, "pricing_pro_plan");
  for (let i = 0; i < 3; i++) await insertWhatsappClick(db, sp(`2026-11-19T12:0${i}:00`), "/pt-br");
  await insertLead(db, sp("2026-11-17T12:10:00"), { ...LEADS[0], lastChannel: "organic_search" });
  await insertLead(db, sp("2026-11-22T23:30:00"), { ...LEADS[1], lastChannel: "paid_social" });
  const [{ id }] = await db.query<{ id: number }>("select id from leads where email = $1", [LEADS[1].email]);
  await db.query(
    `insert into lead_deliveries (lead_id, destination, event_id, status, attempts, next_attempt_at, created_at,
       retry_since, last_error)
     values ($1, 'webhook', 'evt-1', 'failed', 3, $2, $2, $2, 'HTTP 410')`,
    [id, sp("2026-11-22T23:30:00")],
  );
  // Week 46.
  for (let i = 0; i < 6; i++) {
    await insertVisit(db, sp(`2026-11-1${i % 5}T10:00:00`), `p${i % 5}`, "/pt-br", {}, google);
  }
  for (let i = 0; i < 2; i++) await insertClick(db, sp(`2026-11-10T12:0${i}:00`));
  await insertWhatsappClick(db, sp("2026-11-11T12:00:00"), "/pt-br");
  await insertLead(db, sp("2026-11-12T09:00:00"), { ...LEADS[2], lastChannel: "organic_search" });
  // Outside both weeks: must not count.
  await insertVisit(db, sp("2026-11-23T00:30:00"), "z", "/pt-br", {}, google);
  await insertLead(db, sp("2026-11-23T00:10:00"), { name: "Depois", email: "depois@x.com", whatsapp: "1" });
}
