import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/env.ts";
import { parseOr400 } from "../../server/body.ts";
import { publicWrite } from "../../server/middleware/public_write.ts";
import { rateLimit } from "../../server/middleware/rate_limit.ts";
import { visitor, visitorLinkKeysOf } from "../../server/middleware/visitor.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { recordConversion, recordEngagement, recordEvent } from "../../services/tracking.ts";
import { audienceOf } from "../../services/audience.ts";
import { audienceReport, leadStateReport } from "../../services/audience_reports.ts";
import { AUDIENCE_DIMENSIONS } from "../../shared/audience.ts";
import {
  clickSeries,
  conversionByUtmSource,
  lastDays,
  pageRanking,
  periodSummary,
  trackingStats,
  uniqueVisitSeries,
  utmCampaignRanking,
  utmDetailRanking,
  utmSourceRanking,
} from "../../services/dashboard_reports.ts";
import { engagementSummary, liveNow, pageTimeRanking } from "../../services/engagement.ts";
import { channelReport, entryPageRanking, trafficSourceRanking } from "../../services/traffic_reports.ts";
import { hourlyReport, whatsappReport } from "../../services/whatsapp_reports.ts";
import { firstContactReport } from "../../services/whatsapp_contact.ts";
import type { RankingKind } from "../../services/panels.ts";
import {
  daysOrRange,
  filteredRange,
  hourlyQuery,
  pageRankingQuery,
  requiredRange,
  statsQuery,
  trackingClickBody,
  trackingEngagementBody,
  trackingEventBody,
  trackingVisitBody,
} from "../../shared/schemas.ts";
import { filtersOf } from "../../shared/filters.ts";
import { rangeOf, reportContext } from "./reports.ts";
import type { DayRange } from "../../shared/dashboard_math.ts";
import type { Filters } from "../../shared/filters.ts";
import { rankingPageOr } from "./panels.ts";

export const TRACKING_MAX_BYTES = 6 * 1024;

/** The site's own host name, parsed once (a URL parse per visit cost about 3 % of its CPU). */
const ownHosts = new Map<string, string>();
function hostOf(origin: string): string {
  let host = ownHosts.get(origin);
  if (host === undefined) ownHosts.set(origin, host = new URL(origin).hostname);
  return host;
}

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
    const body = parseOr400(kind === "visit" ? trackingVisitBody : trackingClickBody, c.get("body"));
    const { key, bot } = c.get("visitor");
    if (!bot) {
      const linkKeys = kind === "visit" ? await visitorLinkKeysOf(c) : undefined;
      const { config } = c.get("deps");
      const ownHost = hostOf(config.PUBLIC_ORIGIN);
      // Device, browser, OS, country and state as categories: the user agent and address are not stored.
      const audience = audienceOf(c.req, c.get("visitor").ip, config);
      await recordEvent(c.get("deps").db, kind, body, key, c.get("now"), linkKeys, ownHost, audience);
    }
    return c.body(null, 202, accepted);
  });
}

// The page's visible time since its previous beacon (sendBeacon when the page is hidden): counted and stored
// like a page view (202 once committed, 429 past the limit, a bot's accepted and not stored).
trackingApi.post("/engagement", beacon, visitor(), async (c) => {
  const body = parseOr400(trackingEngagementBody, c.get("body"));
  const { key, bot } = c.get("visitor");
  if (!bot) await recordEngagement(c.get("deps").db, body, key, c.get("now"));
  return c.body(null, 202, accepted);
});

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
  return c.json(await clickSeries(db, rangeOf(q) ?? lastDays(q.days!, tz, now), tz, filtersOf(q)));
});

// Every report below takes the dashboard's filters (`f_channel`, `f_utm_source`... shared/filters.ts).
trackingApi.get("/unique-visits", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(filteredRange, query);
  return c.json(await uniqueVisitSeries(db, rangeOf(q)!, tz, filtersOf(q)));
});

trackingApi.get("/stats", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(statsQuery, query);
  return c.json(await trackingStats(db, rangeOf(q), tz, filtersOf(q)));
});

trackingApi.get("/summary", adminOnly(), async (c) => {
  const { db, tz, now, query } = reportContext(c);
  const q = parseOr400(filteredRange, query);
  return c.json(await periodSummary(db, rangeOf(q)!, tz, now, filtersOf(q)));
});

// A one-day period hour by hour, from the raw rows (docs/ANALYTICS.md, "Hour by hour").
trackingApi.get("/hourly", adminOnly(), async (c) => {
  const { db, tz, now, query } = reportContext(c);
  return c.json(await hourlyReport(db, parseOr400(hourlyQuery, query).date, tz, now));
});

// Time to the first WhatsApp contact (issue 31): lead to message delivered, to the lead's reply, per channel.
trackingApi.get("/first-contact", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(requiredRange, query);
  return c.json(await firstContactReport(db, c.get("deps").config, rangeOf(q)!, tz));
});

// Path plus query (without click ids), or with `by=path` the path alone ("por caminho").
trackingApi.get("/rankings/pages", adminOnly(), async (c) => {
  const { db, tz, query } = reportContext(c);
  const q = parseOr400(pageRankingQuery, query);
  const paged = await rankingPageOr(c, "pages");
  if (paged) return paged;
  return c.json(await pageRanking(db, rangeOf(q)!, tz, q.by === "path", filtersOf(q)));
});

/** The reports that take a required period (and the clock, for comparisons) and answer a list or a comparison. */
type Report = (db: AppDeps["db"], range: DayRange, tz: string, now: Date, f: Filters) => Promise<unknown>;
const periodReports: Record<string, Report> = {
  "/rankings/utm-source": (db, range, tz, _now, f) => utmSourceRanking(db, range, tz, f),
  "/rankings/utm-campaign": (db, range, tz, _now, f) => utmCampaignRanking(db, range, tz, f),
  "/rankings/utm-content": (db, range, tz, _now, f) => utmDetailRanking(db, "utm_content", range, tz, f),
  "/rankings/utm-term": (db, range, tz, _now, f) => utmDetailRanking(db, "utm_term", range, tz, f),
  "/conversion-by-utm-source": (db, range, tz, _now, f) => conversionByUtmSource(db, range, tz, f),
  "/channels": channelReport,
  "/rankings/sources": trafficSourceRanking,
  "/rankings/entry-pages": entryPageRanking,
  "/whatsapp": whatsappReport,
  "/engagement": engagementSummary,
  "/rankings/page-time": pageTimeRanking,
  // Who the visitors are (docs/AUDIENCE.md).
  ...Object.fromEntries(
    AUDIENCE_DIMENSIONS.map((d) => [
      `/audience/${d}`,
      ((db, range, tz, now, f) => audienceReport(db, d, range, tz, now, f)) as Report,
    ]),
  ),
  "/lead-states": leadStateReport,
};
for (const [path, report] of Object.entries(periodReports)) {
  trackingApi.get(path, adminOnly(), async (c) => {
    // A ranking answers one page of its whole list when asked (`limit`, `offset`, `search`).
    const kind = path.startsWith("/rankings/") ? path.slice("/rankings/".length) as RankingKind : null;
    const paged = kind && await rankingPageOr(c, kind);
    if (paged) return paged;
    const { db, tz, now, query } = reportContext(c);
    const q = parseOr400(filteredRange, query);
    return c.json(await report(db, rangeOf(q)!, tz, now, filtersOf(q)));
  });
}

// "Agora": the visitors of the last minutes, from the raw page views; never cached (the dashboard polls it).
trackingApi.get("/live", adminOnly(), async (c) => {
  const { db, now } = reportContext(c);
  c.header("cache-control", "no-store");
  return c.json(await liveNow(db, now));
});
