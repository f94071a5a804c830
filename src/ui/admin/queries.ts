import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import {
  channelReport,
  conversionBySource,
  dailySeries,
  entryPageRanking,
  leadList,
  pageRanking,
  sourceRanking,
  summary,
  trackingStats,
  utmCampaignRanking,
  utmSourceRanking,
} from "../../shared/admin_schemas.ts";
import { getJson, getPage, rangeQuery } from "./api.ts";

/** Rankings and conversion by source are cached 5 minutes (spec section 7); the rest never goes stale. */
export const RANKING_CACHE_MS = 300_000;

export interface Period {
  start: string;
  end: string;
}

export function useSummary(p: Period) {
  return useQuery({
    queryKey: ["summary", p.start, p.end],
    queryFn: () => getJson(`/api/tracking/summary?${rangeQuery(p.start, p.end)}`, summary),
  });
}

export function useStats(p: Period) {
  return useQuery({
    queryKey: ["stats", p.start, p.end],
    queryFn: () => getJson(`/api/tracking/stats?${rangeQuery(p.start, p.end)}`, trackingStats),
  });
}

export function useDailySeries(p: Period) {
  return useQuery({
    queryKey: ["daily", p.start, p.end],
    queryFn: async () => {
      const q = rangeQuery(p.start, p.end);
      const [leads, clicks, visits] = await Promise.all([
        getJson(`/api/leads/analytics?${q}`, dailySeries),
        getJson(`/api/tracking/analytics?${q}`, dailySeries),
        getJson(`/api/tracking/unique-visits?${q}`, dailySeries),
      ]);
      return { leads, clicks, visits };
    },
  });
}

/** What narrows and orders the lead list (and its CSV export). */
export interface LeadFilters {
  search: string;
  /** A plan value, or "" for every plan. */
  plan: string;
  /** An exact UTM source, or "" for any. */
  utmSource: string;
  sort: "newest" | "oldest";
}

/** The lead list's query string for a period and filters (pagination aside). */
export function leadParams(p: Period, f: LeadFilters): URLSearchParams {
  const q = new URLSearchParams({ startDate: p.start, endDate: p.end });
  if (f.search) q.set("q", f.search);
  if (f.plan) q.set("plan", f.plan);
  if (f.utmSource) q.set("utmSource", f.utmSource);
  if (f.sort === "oldest") q.set("sort", "oldest");
  return q;
}

export function useLeads(p: Period, filters: LeadFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: ["leads", p.start, p.end, filters, page, pageSize],
    queryFn: () => {
      const q = leadParams(p, filters);
      q.set("limit", String(pageSize));
      q.set("offset", String(page * pageSize));
      return getPage(`/api/leads?${q}`, leadList);
    },
    // While another page or search of the same period loads, its current page stays on screen (marked
    // busy); another period never shows this one's leads.
    placeholderData: (previous, query) =>
      query && query.queryKey[1] === p.start && query.queryKey[2] === p.end ? previous : undefined,
  });
}

/** Each ranking's path under /api/tracking/rankings/ and the schema of its answer. */
export const RANKINGS = {
  "utm-source": utmSourceRanking,
  "utm-campaign": utmCampaignRanking,
  "pages": pageRanking,
  "sources": sourceRanking,
  "entry-pages": entryPageRanking,
};

export type RankingKind = keyof typeof RANKINGS;
/** One item of a ranking of this kind. */
export type RankingItem<K extends RankingKind> = z.output<(typeof RANKINGS)[K]>[number];

/** A ranking of the period; `extra` adds query parameters (`by=path` for pages grouped by path). */
export function useRanking<K extends RankingKind>(kind: K, p: Period, extra = "") {
  return useQuery({
    queryKey: ["ranking", kind, p.start, p.end, extra],
    // TypeScript cannot narrow RANKINGS[kind] by a generic K; the schema is still the kind's own.
    queryFn: () =>
      getJson(
        `/api/tracking/rankings/${kind}?${rangeQuery(p.start, p.end)}${extra ? "&" + extra : ""}`,
        RANKINGS[kind] as z.ZodType<RankingItem<K>[]>,
      ),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

export function useConversionBySource(p: Period) {
  return useQuery({
    queryKey: ["conversion-by-source", p.start, p.end],
    queryFn: () =>
      getJson(`/api/tracking/conversion-by-utm-source?${rangeQuery(p.start, p.end)}`, conversionBySource),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

export function useChannels(p: Period) {
  return useQuery({
    queryKey: ["channels", p.start, p.end],
    queryFn: () => getJson(`/api/tracking/channels?${rangeQuery(p.start, p.end)}`, channelReport),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}
