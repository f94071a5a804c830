import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJson } from "../../server/body.ts";
import { adminGuard, requireAdmin } from "../../server/middleware/session.ts";
import { destinationsPanel, leadDeliveries, resendDelivery } from "../../services/lead_delivery.ts";

/** Most leads whose deliveries one request may ask for (a page of the lead list is 25). */
export const DELIVERIES_MAX_LEADS = 100;

const leadsQuery = z.object({
  leads: z.string().regex(/^\d{1,18}(,\d{1,18})*$/, "must be lead ids separated by commas")
    .transform((v) => [...new Set(v.split(",").map(Number))])
    .refine((ids) => ids.length <= DELIVERIES_MAX_LEADS, `at most ${DELIVERIES_MAX_LEADS} leads`),
});

const resendBody = z.strictObject({
  leadId: z.number().int().positive(),
  destination: z.enum(["webhook", "pipefy", "trello", "email"]),
});

/**
 * The sales-delivery view of the dashboard: each lead's deliveries, the configured destinations' health
 * (never a URL, token or password), and "Reenviar". Admin-only; the POST must be same-origin JSON.
 */
export const deliveriesApi = new Hono<AppEnv>();
const guard = [adminGuard(), requireAdmin()] as const;

deliveriesApi.get("/api/admin/deliveries", ...guard, async (c) => {
  const { leads } = parseOr400(leadsQuery, { leads: c.req.query("leads") });
  return c.json({ deliveries: await leadDeliveries(c.get("deps").db, leads) });
});

deliveriesApi.get("/api/admin/destinations", ...guard, async (c) => {
  const { db, config } = c.get("deps");
  return c.json({ destinations: await destinationsPanel(db, config) });
});

deliveriesApi.post("/api/admin/deliveries/resend", ...guard, async (c) => {
  const { leadId, destination } = await readJson(c, resendBody, { maxBytes: 1024 });
  const deps = c.get("deps");
  const queued = await resendDelivery(deps.db, leadId, destination, deps.now?.() ?? new Date());
  return queued
    ? c.json({ success: true, message: "Reenvio agendado" })
    : c.json({ success: false, message: "Nada a reenviar: já entregue, em envio ou inexistente" }, 409);
});
