import { Hono } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400 } from "../../server/body.ts";
import { publicWrite } from "../../server/middleware/public_write.ts";
import { rateLimit } from "../../server/middleware/rate_limit.ts";
import { metaClientOf, visitor, visitorKeysSinceOf } from "../../server/middleware/visitor.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { saveLead } from "../../services/leads.ts";
import { findLeads, lastDays, leadSeries } from "../../services/dashboard_reports.ts";
import { leadsCsv } from "../../services/leads_csv.ts";
import type { LeadFilter } from "../../shared/lead_filter.ts";
import { withWhatsappContact } from "../../services/whatsapp_contact.ts";
import { csvExportQuery, daysOrRange, leadBody, leadQuery } from "../../shared/schemas.ts";
import { rangeOf, reportContext } from "./reports.ts";
import { filtersOf } from "../../shared/filters.ts";

export const LEAD_MAX_BYTES = 16 * 1024;

/** The lead list's filters and order, shared by the list and the export. */
function leadFilterOf(q: z.infer<typeof leadQuery>): LeadFilter {
  return {
    range: rangeOf(q),
    q: q.q || undefined,
    plan: q.plan,
    utmSource: q.utmSource || undefined,
    oldestFirst: q.sort === "oldest",
    filters: filtersOf(q),
  };
}

/**
 * /api/leads: the public POST (same origin only; 201 `{ id }` once the lead is committed) and the
 * administrator's list, CSV export and daily series.
 */
export const leadsApi = new Hono<AppEnv>();

leadsApi.post(
  "/",
  publicWrite({ maxBytes: LEAD_MAX_BYTES }),
  visitor(),
  rateLimit(LIMITS.leads),
  async (c) => {
    const { bot } = c.get("visitor");
    const body = parseOr400(leadBody, c.get("body"));
    const headers = { "cache-control": "no-store" };
    // Bots and honeypot fills get the same answer as people, so they learn nothing from it.
    if (bot || body.website) return c.json({ id: 0 }, 201, headers);
    const { db, config } = c.get("deps");
    const { id } = await saveLead(db, config, {
      name: body.name,
      email: body.email,
      whatsapp: body.whatsapp,
      plan: body.plan,
      utmSource: body.utmSource,
      utmCampaign: body.utmCampaign,
      utmMedium: body.utmMedium,
      page: body.page || null,
      idempotencyKey: body.idempotencyKey ?? null,
      eventId: body.eventId ?? null,
      sessionId: body.sessionId ?? null,
      submittedAt: body.submittedAt ?? null,
      referrer: body.referrer,
      clickIds: body.clickIds,
      landingPage: body.landingPage ?? null,
      whatsappConsent: body.whatsappConsent === true,
    }, {
      client: metaClientOf(c),
      now: c.get("now"),
      keysSince: (since) => visitorKeysSinceOf(c, since),
    });
    return c.json({ id }, 201, headers);
  },
);

leadsApi.get("/", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(leadQuery, query);
  const { leads, total } = await findLeads(db, { ...leadFilterOf(q), limit: q.limit, offset: q.offset }, tz);
  c.header("x-total-count", String(total));
  return c.json(await withWhatsappContact(db, c.get("deps").config, leads));
});

// `?layout=rfc4180` for the plain comma layout; by default the one a pt-BR spreadsheet opens as columns.
leadsApi.get("/export.csv", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(csvExportQuery, query);
  const range = rangeOf(q);
  const { leads } = await findLeads(db, leadFilterOf(q), tz);
  const name = range ? `leads_${range.start}_${range.end}.csv` : "leads.csv";
  return c.body(leadsCsv(leads, tz, q.layout), 200, {
    "content-type": "text/csv; charset=utf-8; header=present",
    "content-disposition": `attachment; filename="${name}"`,
  });
});

leadsApi.get("/analytics", adminOnly(), async (c) => {
  const { db, tz, now, query } = reportContext(c);
  const q = parseOr400(daysOrRange, query);
  return c.json(await leadSeries(db, rangeOf(q) ?? lastDays(q.days!, tz, now), tz, filtersOf(q)));
});
