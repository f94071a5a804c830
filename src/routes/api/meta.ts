import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJsonValue } from "../../server/body.ts";
import { sameOrigin } from "../../server/middleware/same_origin.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { queueMetaEvent } from "../../services/meta.ts";
import { text, token } from "./schemas.ts";
import { isBotRequest, limitAndKey, metaClient, nowOf } from "./visitor.ts";

export const META_EVENT_MAX_BYTES = 8 * 1024;

const customValue = z.union([text(500), z.number().finite(), z.boolean(), z.null()]);

const metaEventBody = z.strictObject({
  eventName: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, "must be an event name such as Lead"),
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
    if (!bot) {
      const { db, config } = c.get("deps");
      await queueMetaEvent(db, config, body, metaClient(c), nowOf(c));
    }
    return c.body(null, 202, { "cache-control": "no-store" });
  });
  return app;
}
