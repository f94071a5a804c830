import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { readJson } from "../../server/body.ts";
import { sameOrigin } from "../../server/middleware/same_origin.ts";
import { recordEvent, type TrackKind } from "../../services/tracking.ts";
import { requiredText, token, utm } from "./schemas.ts";
import { clientKey, clientLinkKeys, isBotRequest, nowOf } from "./visitor.ts";

export const TRACKING_MAX_BYTES = 4 * 1024;

const common = {
  source: requiredText(2000),
  sessionId: token(100).nullish().transform((v) => v ?? ""),
  utmSource: utm,
  utmCampaign: utm,
  utmMedium: utm,
};
const eventBody = z.strictObject(common);
const visitBody = z.strictObject({ ...common, utmTerm: utm, utmContent: utm });

/** POST /api/tracking/visit|click|conversion: 202 once stored (batched), counted unless the caller is a bot. */
export function trackingApi(origin: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/api/tracking/*", sameOrigin({ origin }));
  for (const kind of ["visit", "click", "conversion"] as TrackKind[]) {
    app.post(`/api/tracking/${kind}`, async (c) => {
      // sendBeacon with a string body arrives as text/plain.
      const body = await readJson(c, kind === "visit" ? visitBody : eventBody, {
        maxBytes: TRACKING_MAX_BYTES,
        allowTextPlain: true,
      });
      if (!isBotRequest(c)) {
        const now = nowOf(c);
        // 202 only once the event is committed; 429 past the client's limit, 503 if the batch failed.
        const linkKeys = kind === "visit" ? await clientLinkKeys(c, now) : undefined;
        await recordEvent(c.get("deps").db, kind, body, await clientKey(c, now), now, linkKeys);
      }
      return c.body(null, 202, { "cache-control": "no-store" });
    });
  }
  return app;
}
