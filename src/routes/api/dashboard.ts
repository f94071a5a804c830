import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400 } from "../../server/body.ts";
import { adminGuard, requireAdmin } from "../../server/middleware/session.ts";
import type { DayRange, LeadFilter } from "../../db/analytics.ts";
import {
  clickSeries,
  conversionByUtmSource,
  findLeads,
  lastDays,
  leadsCsv,
  leadSeries,
  pageRanking,
  periodSummary,
  trackingStats,
  uniqueVisitSeries,
  utmCampaignRanking,
  utmSourceRanking,
} from "../../services/analytics.ts";
import { daysInclusive, isDay, MAX_RANGE_DAYS } from "../../shared/analytics.ts";
import { channelReport, entryPageRanking, trafficSourceRanking } from "../../services/traffic_reports.ts";

/** Longest period a dashboard query may cover (two years and a day). */

const day = z.string().refine(isDay, "must be a date written yyyy-MM-dd");

const optionalRange = z.object({ startDate: day.optional(), endDate: day.optional() }).superRefine(
  (v, ctx) => {
    if (Boolean(v.startDate) !== Boolean(v.endDate)) {
      const missing = v.startDate ? "endDate" : "startDate";
      ctx.addIssue({ code: "custom", path: [missing], message: "startDate and endDate go together" });
    } else if (v.startDate && v.endDate) {
      if (v.endDate < v.startDate) {
        ctx.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
      } else if (daysInclusive(v.startDate, v.endDate) > MAX_RANGE_DAYS) {
        ctx.addIssue({
          code: "custom",
          path: ["endDate"],
          message: `the period may span at most ${MAX_RANGE_DAYS} days`,
        });
      }
    }
  },
);

const requiredRange = optionalRange.superRefine((v, ctx) => {
  if (!v.startDate && !v.endDate) {
    ctx.addIssue({ code: "custom", path: ["startDate"], message: "required" });
    ctx.addIssue({ code: "custom", path: ["endDate"], message: "required" });
  }
});

const daysOrRange = optionalRange.and(
  z.object({ days: z.coerce.number().int().min(1).max(MAX_RANGE_DAYS).optional() }),
).superRefine((v, ctx) => {
  if (v.days === undefined && !v.startDate) {
    ctx.addIssue({ code: "custom", path: ["days"], message: "give days, or startDate and endDate" });
  }
});

const leadQuery = optionalRange.and(z.object({
  q: z.string().trim().max(100, "at most 100 characters").optional(),
  plan: z.enum(["micro", "pro", "premium", "enterprise", "unknown"]).optional(),
  utmSource: z.string().trim().max(200, "at most 200 characters").optional(),
  sort: z.enum(["newest", "oldest"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
}));

function rangeOf(v: { startDate?: string; endDate?: string }): DayRange | undefined {
  return v.startDate && v.endDate ? { start: v.startDate, end: v.endDate } : undefined;
}

/** The lead list's filters and order, shared by the list and the export. */
function leadFilterOf(q: z.infer<typeof leadQuery>): LeadFilter {
  return {
    range: rangeOf(q),
    q: q.q || undefined,
    plan: q.plan,
    utmSource: q.utmSource || undefined,
    oldestFirst: q.sort === "oldest",
  };
}

function ctx(c: Context<AppEnv>) {
  const { db, config, now } = c.get("deps");
  return { db, tz: config.ANALYTICS_TZ, now: now?.() ?? new Date(), query: c.req.query() };
}

/** The administrator's read-only data: leads, daily series, stats, rankings, conversion by source, export. */
export const dashboardApi = new Hono<AppEnv>();
// Middleware is attached per route: this app shares paths (/api/leads) with the public POST handlers.
const guard = [adminGuard(), requireAdmin()] as const;

dashboardApi.get("/api/leads", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  const q = parseOr400(leadQuery, query);
  const { leads, total } = await findLeads(db, { ...leadFilterOf(q), limit: q.limit, offset: q.offset }, tz);
  c.header("x-total-count", String(total));
  return c.json(leads);
});

dashboardApi.get("/api/leads/export.csv", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  const q = parseOr400(leadQuery, query);
  const range = rangeOf(q);
  const { leads } = await findLeads(db, leadFilterOf(q), tz);
  const name = range ? `leads_${range.start}_${range.end}.csv` : "leads.csv";
  return c.body(leadsCsv(leads, tz), 200, {
    "content-type": "text/csv; charset=utf-8; header=present",
    "content-disposition": `attachment; filename="${name}"`,
  });
});

dashboardApi.get("/api/leads/analytics", ...guard, async (c) => {
  const { db, tz, now, query } = ctx(c);
  const q = parseOr400(daysOrRange, query);
  return c.json(await leadSeries(db, rangeOf(q) ?? lastDays(q.days!, tz, now), tz));
});

dashboardApi.get("/api/tracking/analytics", ...guard, async (c) => {
  const { db, tz, now, query } = ctx(c);
  const q = parseOr400(daysOrRange, query);
  return c.json(await clickSeries(db, rangeOf(q) ?? lastDays(q.days!, tz, now), tz));
});

dashboardApi.get("/api/tracking/unique-visits", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await uniqueVisitSeries(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/stats", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await trackingStats(db, rangeOf(parseOr400(optionalRange, query)), tz));
});

dashboardApi.get("/api/tracking/summary", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await periodSummary(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/rankings/utm-source", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await utmSourceRanking(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/rankings/utm-campaign", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await utmCampaignRanking(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/rankings/pages", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await pageRanking(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/conversion-by-utm-source", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await conversionByUtmSource(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/channels", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await channelReport(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/rankings/sources", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await trafficSourceRanking(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});

dashboardApi.get("/api/tracking/rankings/entry-pages", ...guard, async (c) => {
  const { db, tz, query } = ctx(c);
  return c.json(await entryPageRanking(db, rangeOf(parseOr400(requiredRange, query))!, tz));
});
