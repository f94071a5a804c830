import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJsonValue } from "../../server/body.ts";
import { sameOrigin } from "../../server/middleware/same_origin.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { queueMetaEvent } from "../../services/meta.ts";
import { leadEventOf, ownPageUrl } from "../../services/leads.ts";
import { ValidationError } from "../../core/errors.ts";
import { text, token } from "./schemas.ts";
import { isBotRequest, limitAndKey, metaClient, nowOf } from "./visitor.ts";

export const META_EVENT_MAX_BYTES = 8 * 1024;

const customValue = z.union([text(500), z.number().finite(), z.boolean(), z.null()]);

/**
 * Body of POST /api/meta/event. The browser only ever sends the `Lead` of a lead it just stored (the pixel's
 * other events never reach the server), so that is the only event accepted. Its `customData` is accepted for
 * compatibility and ignored: what goes to Meta is decided from the stored lead (services/leads.ts).
 */
const metaEventBody = z.strictObject({
  eventName: z.literal("Lead", "must be Lead, the only event this site sends from the server"),
  eventSourceUrl: z.url({ protocol: /^https?$/ }).max(2000),
  customData: z.record(z.string().regex(/^[A-Za-z0-9_]{1,50}$/), customValue)
    .refine((v) => Object.keys(v).length <= 30, "must have at most 30 keys")
    .optional(),
  eventId: token(100),
});

/** GET /api/config (public, never a secret) and POST /api/meta/event (queued in the outbox). */
export function metaApi(origin: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/api/config", (c) => {
    const { config } = c.get("deps");
    return c.json({ metaPixelId: config.META_PIXEL_ID ?? null, gtmId: config.GTM_ID ?? null });
  });
  app.use("/api/meta/*", sameOrigin({ origin }));
  app.post("/api/meta/event", async (c) => {
    const bot = isBotRequest(c);
    // Read before counting, so an aborted upload uses none of the quota; invalid bodies still count.
    const value = await readJsonValue(c, { maxBytes: META_EVENT_MAX_BYTES });
    if (!bot) await limitAndKey(c, { ...LIMITS.tracking, name: "meta" });
    const body = parseOr400(metaEventBody, value);
    const { db, config } = c.get("deps");
    const eventSourceUrl = ownPageUrl(config, body.eventSourceUrl);
    if (!eventSourceUrl) throw new ValidationError({ eventSourceUrl: "must be a page of this site" });
    const event = await leadEventOf(db, body.eventId, eventSourceUrl);
    if (!event) throw new ValidationError({ eventId: "matches no stored lead" });
    if (!bot) await queueMetaEvent(db, config, event, metaClient(c), nowOf(c));
    return c.body(null, 202, { "cache-control": "no-store" });
  });
  return app;
}
