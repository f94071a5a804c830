import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400 } from "../../server/body.ts";
import { publicWrite } from "../../server/middleware/public_write.ts";
import { rateLimit } from "../../server/middleware/rate_limit.ts";
import { metaClientOf, visitor } from "../../server/middleware/visitor.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { queueMetaEvent } from "../../services/meta.ts";
import { leadEventOf, ownPageUrl } from "../../services/leads.ts";
import { ValidationError } from "../../core/errors.ts";
import { metaEventBody } from "../../shared/schemas.ts";

export const META_EVENT_MAX_BYTES = 8 * 1024;

/** /api/meta: POST /event, a stored lead's `Lead` event queued in the outbox for the Conversions API. */
export const metaApi = new Hono<AppEnv>();

metaApi.post(
  "/event",
  publicWrite({ maxBytes: META_EVENT_MAX_BYTES }),
  visitor(),
  rateLimit(LIMITS.meta),
  async (c) => {
    const body = parseOr400(metaEventBody, c.get("body"));
    const { db, config } = c.get("deps");
    const eventSourceUrl = ownPageUrl(config, body.eventSourceUrl);
    if (!eventSourceUrl) throw new ValidationError({ eventSourceUrl: "must be a page of this site" });
    const event = await leadEventOf(db, body.eventId, eventSourceUrl);
    if (!event) throw new ValidationError({ eventId: "matches no stored lead" });
    if (!c.get("visitor").bot) await queueMetaEvent(db, config, event, metaClientOf(c), c.get("now"));
    return c.body(null, 202, { "cache-control": "no-store" });
  },
);
