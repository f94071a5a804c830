import { useQuery } from "@tanstack/react-query";
import {
  type ChannelReport,
  type DailyCount,
  getJson,
  getPage,
  type Lead,
  rangeQuery,
  type SourceConversion,
  type Summary,
  type TrackingStats,
} from "./api.ts";

/** Rankings and conversion by source are cached 5 minutes (spec section 7); the rest never goes stale. */
export const RANKING_CACHE_MS = 300_000;

export interface Period {
  start: string;
  end: string;
}

export function useSummary(p: Period) {
  return useQuery({
    queryKey: ["summary", p.start, p.end],
    queryFn: () => getJson<Summary>(`/api/tracking/summary?${rangeQuery(p.start, p.end)}`),
  });
}

export function useStats(p: Period) {
  return useQuery({
    queryKey: ["stats", p.start, p.end],
    queryFn: () => getJson<TrackingStats>(`/api/tracking/stats?${rangeQuery(p.start, p.end)}`),
  });
}

export function useDailySeries(p: Period) {
  return useQuery({
    queryKey: ["daily", p.start, p.end],
    queryFn: async () => {
      const q = rangeQuery(p.start, p.end);
      const [leads, clicks, visits] = await Promise.all([
        getJson<DailyCount[]>(`/api/leads/analytics?${q}`),
        getJson<DailyCount[]>(`/api/tracking/analytics?${q}`),
        getJson<DailyCount[]>(`/api/tracking/unique-visits?${q}`),
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
      return getPage<Lead>(`/api/leads?${q}`);
    },
    // While another page or search of the same period loads, its current page stays on screen (marked
    // busy); another period never shows this one's leads.
    placeholderData: (previous, query) =>
      query && query.queryKey[1] === p.start && query.queryKey[2] === p.end ? previous : undefined,
  });
}

export type RankingKind = "utm-source" | "utm-campaign" | "pages" | "sources" | "entry-pages";

export function useRanking<T>(kind: RankingKind, p: Period) {
  return useQuery({
    queryKey: ["ranking", kind, p.start, p.end],
    queryFn: () => getJson<T[]>(`/api/tracking/rankings/${kind}?${rangeQuery(p.start, p.end)}`),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

export function useConversionBySource(p: Period) {
  return useQuery({
    queryKey: ["conversion-by-source", p.start, p.end],
    queryFn: () =>
      getJson<SourceConversion[]>(`/api/tracking/conversion-by-utm-source?${rangeQuery(p.start, p.end)}`),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

export function useChannels(p: Period) {
  return useQuery({
    queryKey: ["channels", p.start, p.end],
    queryFn: () => getJson<ChannelReport>(`/api/tracking/channels?${rangeQuery(p.start, p.end)}`),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}
