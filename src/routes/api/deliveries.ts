import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJson } from "../../server/body.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { destinationsPanel, leadDeliveries, resendDelivery } from "../../services/lead_delivery.ts";
import { deliveriesQuery, resendBody } from "../../shared/schemas.ts";
import { refused } from "./refused.ts";

/**
 * /api/admin/deliveries and /api/admin/destinations, the sales-delivery view of the dashboard: each lead's
 * deliveries, the configured destinations' health (never a URL, token or password), and "Reenviar".
 * Admin-only; the POST must be same-origin JSON.
 */
export const deliveriesApi = new Hono<AppEnv>();

deliveriesApi.get("/deliveries", adminOnly(), async (c) => {
  const { leads } = parseOr400(deliveriesQuery, { leads: c.req.query("leads") });
  const { db, config } = c.get("deps");
  return c.json({ deliveries: await leadDeliveries(db, config, leads, c.get("now")) });
});

deliveriesApi.get("/destinations", adminOnly(), async (c) => {
  const { db, config } = c.get("deps");
  return c.json({ destinations: await destinationsPanel(db, config) });
});

deliveriesApi.post("/deliveries/resend", adminOnly(), async (c) => {
  const { leadId, destination } = await readJson(c, resendBody, { maxBytes: 1024 });
  const queued = await resendDelivery(c.get("deps").db, leadId, destination, c.get("now"));
  // 409 when there is nothing to resend: already delivered, being sent, or no such delivery.
  if (!queued) throw refused(409, "nothing_to_resend");
  return c.body(null, 202);
});
