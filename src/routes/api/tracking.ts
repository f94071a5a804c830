import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { readJson } from "../../server/body.ts";
import { sameOrigin } from "../../server/middleware/same_origin.ts";
import { recordConversion, recordEvent, type TrackKind } from "../../services/tracking.ts";
import { clickIdFlags, referrerHost, requiredText, sitePath, token, utm } from "./schemas.ts";
import { clientKey, clientLinkKeys, isBotRequest, nowOf } from "./visitor.ts";

export const TRACKING_MAX_BYTES = 6 * 1024;

const common = {
  source: requiredText(2000),
  sessionId: token(100).nullish().transform((v) => v ?? ""),
  utmSource: utm,
  utmCampaign: utm,
  utmMedium: utm,
  // The session's touch: the referring site's host (only another site's) and the landing URL's click ids.
  referrer: referrerHost,
  clickIds: clickIdFlags,
};
const eventBody = z.strictObject(common);
const visitBody = z.strictObject({
  ...common,
  // The page viewed (path and query).
  source: sitePath(2000),
  utmTerm: utm,
  utmContent: utm,
  entry: z.boolean().nullish().transform((v) => v === true),
});

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
        const { db, config } = c.get("deps");
        if (kind === "conversion") {
          // Counted only for a stored lead of this tracking session (no more than its leads). Otherwise it
          // is still answered 202, not a 4xx: like a bot's events, it is accepted and not counted, so the
          // answer teaches an inflater nothing, and a browser whose report races its own lead loses nothing
          // it could act on (a beacon cannot retry).
          await recordConversion(db, body, await clientKey(c, now), now);
        } else {
          // 202 only once the event is committed; 429 past the client's limit, 503 if the batch failed.
          const linkKeys = kind === "visit" ? await clientLinkKeys(c, now) : undefined;
          const ownHost = new URL(config.PUBLIC_ORIGIN).hostname;
          await recordEvent(db, kind, body, await clientKey(c, now), now, linkKeys, ownHost);
        }
      }
      return c.body(null, 202, { "cache-control": "no-store" });
    });
  }
  return app;
}
