// Sessions for the dashboard's filter tests (the API's and the browser's): each session's page views, plan
// clicks and lead, with the touch columns the server stores, so every filtered figure can be worked out by
// hand (src/routes/api/filters_test.ts lists them).
import type { Queryable } from "../src/db/client.ts";
import { sp } from "./analytics_fixture.ts";

export interface Session {
  id: string;
  visitor: string;
  channel: string;
  source: string;
  utm?: { source?: string; medium?: string; campaign?: string; content?: string; term?: string };
  /** Page views (the first is the entry), at local times. */
  views: [string, string][];
  clicks?: string[];
  lead?: { at: string; name: string };
}

export const FB = { source: "facebook", medium: "cpc", campaign: "bf" };
/**
 * November 2026, four sessions; October, one:
 * s1 visitor a, Meta ad "video-1": /pt-br, then /pt-br/clientes; a click; a lead.
 * s2 visitor b, Meta ad "carrossel-2": /pt-br; a click.
 * s3 visitor c, Google ad, keyword "whatsapp api": /pt-br/pipefy-whatsapp-integracao, then /pt-br; a click; a
 *    lead.
 * s4 visitor a again, direct: /pt-br/clientes.
 * s5 (October) visitor d, Meta ad "video-1": /pt-br; a click.
 */
export const SESSIONS: Session[] = [
  {
    id: "s1",
    visitor: "a",
    channel: "paid_social",
    source: "facebook",
    utm: { ...FB, content: "video-1" },
    views: [["2026-11-05T10:00:00", "/pt-br"], ["2026-11-05T10:01:00", "/pt-br/clientes"]],
    clicks: ["2026-11-05T10:02:00"],
    lead: { at: "2026-11-05T10:03:00", name: "Ana Meta" },
  },
  {
    id: "s2",
    visitor: "b",
    channel: "paid_social",
    source: "facebook",
    utm: { ...FB, content: "carrossel-2" },
    views: [["2026-11-06T09:00:00", "/pt-br"]],
    clicks: ["2026-11-06T09:01:00"],
  },
  {
    id: "s3",
    visitor: "c",
    channel: "paid_search",
    source: "google",
    utm: { source: "Google", medium: "cpc", campaign: "bf", term: "whatsapp api" },
    views: [["2026-11-07T14:00:00", "/pt-br/pipefy-whatsapp-integracao"], ["2026-11-07T14:05:00", "/pt-br"]],
    clicks: ["2026-11-07T14:06:00"],
    lead: { at: "2026-11-07T14:07:00", name: "Caio Google" },
  },
  {
    id: "s4",
    visitor: "a",
    channel: "direct",
    source: "direto",
    views: [["2026-11-20T20:00:00", "/pt-br/clientes"]],
  },
  {
    id: "s5",
    visitor: "d",
    channel: "paid_social",
    source: "facebook",
    utm: { ...FB, content: "video-1" },
    views: [["2026-10-10T08:00:00", "/pt-br"]],
    clicks: ["2026-10-10T08:01:00"],
  },
];

export async function seedSessions(db: Queryable) {
  for (const s of SESSIONS) {
    const u = s.utm ?? {};
    for (const [i, [at, page]] of s.views.entries()) {
      await db.query(
        `insert into visits (occurred_at, visitor_key, session_id, source, utm_source, utm_medium, utm_campaign,
           utm_content, utm_term, traffic_source, channel, entry)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          sp(at),
          s.visitor,
          s.id,
          page,
          u.source ?? null,
          u.medium ?? null,
          u.campaign ?? null,
          u.content ?? null,
          u.term ?? null,
          s.source,
          s.channel,
          i === 0,
        ],
      );
    }
    for (const at of s.clicks ?? []) {
      await db.query(
        `insert into clicks (occurred_at, visitor_key, session_id, source, utm_source, utm_medium, utm_campaign,
           traffic_source, channel)
         values ($1, $2, $3, 'pricing_pro_plan', $4, $5, $6, $7, $8)`,
        [
          sp(at),
          s.visitor,
          s.id,
          u.source ?? null,
          u.medium ?? null,
          u.campaign ?? null,
          s.source,
          s.channel,
        ],
      );
    }
    if (s.lead) {
      await db.query(
        `insert into leads (submitted_at, name, email, whatsapp, plan, plan_label, utm_source, utm_medium,
           utm_campaign, session_id, last_source, last_channel, utm_content, utm_term)
         values ($1, $2, $3, '11999990000', 'pro', 'Pro', $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          sp(s.lead.at),
          s.lead.name,
          `${s.id}@example.com`,
          u.source ?? null,
          u.medium ?? null,
          u.campaign ?? null,
          s.id,
          s.source,
          s.channel,
          u.content ?? null,
          u.term ?? null,
        ],
      );
    }
  }
}
