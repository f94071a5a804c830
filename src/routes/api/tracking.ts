import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400 } from "../../server/body.ts";
import { publicWrite } from "../../server/middleware/public_write.ts";
import { rateLimit } from "../../server/middleware/rate_limit.ts";
import { visitor, visitorLinkKeysOf } from "../../server/middleware/visitor.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { recordConversion, recordEvent } from "../../services/tracking.ts";
import {
  clickSeries,
  conversionByUtmSource,
  lastDays,
  pageRanking,
  periodSummary,
  trackingStats,
  uniqueVisitSeries,
  utmCampaignRanking,
  utmSourceRanking,
} from "../../services/analytics.ts";
import { channelReport, entryPageRanking, trafficSourceRanking } from "../../services/traffic_reports.ts";
import type { RankingKind } from "../../services/panels.ts";
import {
  daysOrRange,
  optionalRange,
  pageRankingQuery,
  requiredRange,
  trackingEventBody,
  trackingVisitBody,
} from "../../shared/schemas.ts";
import { rangeOf, reportContext } from "./reports.ts";
import { rankingPageOr } from "./panels.ts";

export const TRACKING_MAX_BYTES = 6 * 1024;

/**
 * /api/tracking: the public POSTs visit, click and conversion (202 once stored, counted unless the caller is
 * a bot) and the administrator's daily series, stats, rankings (a page of the whole list with `limit`,
 * `offset` or `search`: routes/api/panels.ts) and channel report.
 */
export const trackingApi = new Hono<AppEnv>();

// sendBeacon with a string body arrives as text/plain.
const beacon = publicWrite({ maxBytes: TRACKING_MAX_BYTES, allowTextPlain: true });
const accepted = { "cache-control": "no-store" };

// Visits and clicks count against LIMITS.tracking in the statement that stores them (services/tracking.ts:
// group commit), so they take no rateLimit() round trip of their own; 202 only once the event is committed,
// 429 past the client's limit, 503 if its batch failed.
for (const kind of ["visit", "click"] as const) {
  trackingApi.post(`/${kind}`, beacon, visitor(), async (c) => {
    const body = parseOr400(kind === "visit" ? trackingVisitBody : trackingEventBody, c.get("body"));
    const { key, bot } = c.get("visitor");
    if (!bot) {
      const linkKeys = kind === "visit" ? await visitorLinkKeysOf(c) : undefined;
      const ownHost = new URL(c.get("deps").config.PUBLIC_ORIGIN).hostname;
      await recordEvent(c.get("deps").db, kind, body, key, c.get("now"), linkKeys, ownHost);
    }
    return c.body(null, 202, accepted);
  });
}

trackingApi.post("/conversion", beacon, visitor(), rateLimit(LIMITS.tracking), async (c) => {
  const body = parseOr400(trackingEventBody, c.get("body"));
  const { key, bot } = c.get("visitor");
  // Counted only for a stored lead of this tracking session (no more than its leads). Otherwise it is still
  // answered 202, not a 4xx: like a bot's events, it is accepted and not counted, so the answer teaches an
  // inflater nothing, and a browser whose report races its own lead loses nothing it could act on (a beacon
  // cannot retry).
  if (!bot) await recordConversion(c.get("deps").db, body, key, c.get("now"));
  return c.body(null, 202, accepted);
});

trackingApi.get("/analytics", adminOnly(), async (c) => {
  const { db, tz, now, query } = reportContext(c);
  const q = parseOr400(daysOrRange, query);
  return c.json(await clickSeries(db, rangeOf(q) ?? lastDays(q.days!, tz, now), tz));
});

trackingApi.get("/unique-visits", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  return c.json(await uniqueVisitSeries(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

trackingApi.get("/stats", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  return c.json(await trackingStats(db, rangeOf(parseOr400(optionalRange, query)), tz));
});

trackingApi.get("/summary", adminOnly(), async (c) => {
  const { db, tz, now, query } = reportContext(c);
  return c.json(await periodSummary(db, rangeOf(parseOr400(requiredRange, query))!, tz, now));
});

// Path plus query (without click ids), or with `by=path` the path alone ("por caminho").
trackingApi.get("/rankings/pages", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(pageRankingQuery, query);
  const paged = await rankingPageOr(c, "pages");
  if (paged) return paged;
  return c.json(await pageRanking(db, rangeOf(q)!, tz, q.by === "path"));
});

/** The reports that take a required period (and the clock, for comparisons) and answer a list or a comparison. */
const periodReports = {
  "/rankings/utm-source": utmSourceRanking,
  "/rankings/utm-campaign": utmCampaignRanking,
  "/conversion-by-utm-source": conversionByUtmSource,
  "/channels": channelReport,
  "/rankings/sources": trafficSourceRanking,
  "/rankings/entry-pages": entryPageRanking,
};
for (const [path, report] of Object.entries(periodReports)) {
  trackingApi.get(path, adminOnly(), async (c) => {
    // A ranking answers one page of its whole list when asked (`limit`, `offset`, `search`).
    const kind = path.startsWith("/rankings/") ? path.slice("/rankings/".length) as RankingKind : null;
    const paged = kind && await rankingPageOr(c, kind);
    if (paged) return paged;
    const { db, tz, now, query } = reportContext(c);
    return c.json(await report(db, rangeOf(parseOr400(requiredRange, query))!, tz, now));
  });
}
