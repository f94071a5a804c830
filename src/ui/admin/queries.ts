import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import {
  channelReport,
  conversionBySource,
  dailySeries,
  entryPageRanking,
  hourlyReport,
  leadList,
  pageRanking,
  sourceRanking,
  summary,
  trackingStats,
  utmCampaignRanking,
  utmDetailRanking,
  utmSourceRanking,
  whatsappReport,
} from "../../shared/admin_schemas.ts";
import { type Filters, type PresetId, writeFilters } from "../../shared/filters.ts";
import { getJson, getPage } from "./api.ts";

/**
 * Rankings and conversion by source are cached 5 minutes (docs/PRODUCT.md, _Dashboard_); the rest never goes
 * stale.
 */
export const RANKING_CACHE_MS = 300_000;

/**
 * The view every card shows: the period and the filters (shared/filters.ts), which each report's query
 * carries under the same names as the dashboard's address.
 */
export interface Period {
  start: string;
  end: string;
  /** The preset the period came from, if any (the address keeps it). */
  preset?: PresetId;
  filters?: Filters;
}

/** The reports' query string of a view: `startDate&endDate` and the filters. */
export function viewQuery(p: Period): string {
  return writeFilters(new URLSearchParams({ startDate: p.start, endDate: p.end }), p.filters).toString();
}

/** A view in a query key: its days and its filters (another filter is another query). */
function viewKey(p: Period): string[] {
  return [p.start, p.end, viewQuery(p)];
}
export { viewKey as viewKeyOf };

export function useSummary(p: Period) {
  return useQuery({
    queryKey: ["summary", ...viewKey(p)],
    queryFn: () => getJson(`/api/tracking/summary?${viewQuery(p)}`, summary),
  });
}

export function useStats(p: Period) {
  return useQuery({
    queryKey: ["stats", ...viewKey(p)],
    queryFn: () => getJson(`/api/tracking/stats?${viewQuery(p)}`, trackingStats),
  });
}

export function useDailySeries(p: Period) {
  return useQuery({
    queryKey: ["daily", ...viewKey(p)],
    queryFn: async () => {
      const q = viewQuery(p);
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
  /** Part of a UTM source, in any case ("goog" finds Google), or "" for any. */
  utmSource: string;
  sort: "newest" | "oldest";
}

/** The lead list's query string for a period and filters (pagination aside). */
export function leadParams(p: Period, f: LeadFilters): URLSearchParams {
  const q = writeFilters(new URLSearchParams({ startDate: p.start, endDate: p.end }), p.filters);
  if (f.search) q.set("q", f.search);
  if (f.plan) q.set("plan", f.plan);
  if (f.utmSource) q.set("utmSource", f.utmSource);
  if (f.sort === "oldest") q.set("sort", "oldest");
  return q;
}

export function useLeads(p: Period, filters: LeadFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: ["leads", ...viewKey(p), filters, page, pageSize],
    queryFn: () => {
      const q = leadParams(p, filters);
      q.set("limit", String(pageSize));
      q.set("offset", String(page * pageSize));
      return getPage(`/api/leads?${q}`, leadList);
    },
    // While another page or search of the same period loads, its current page stays on screen (marked
    // busy); another period never shows this one's leads.
    placeholderData: (previous, query) => query && query.queryKey[3] === viewQuery(p) ? previous : undefined,
  });
}

/** Each ranking's path under /api/tracking/rankings/ and the schema of its answer. */
export const RANKINGS = {
  "utm-source": utmSourceRanking,
  "utm-campaign": utmCampaignRanking,
  "pages": pageRanking,
  "sources": sourceRanking,
  "entry-pages": entryPageRanking,
  "utm-content": utmDetailRanking,
  "utm-term": utmDetailRanking,
};

export type RankingKind = keyof typeof RANKINGS;
/** One item of a ranking of this kind. */
export type RankingItem<K extends RankingKind> = z.output<(typeof RANKINGS)[K]>[number];

/**
 * A ranking of the period; `extra` adds query parameters (`by=path` for pages grouped by path); not asked
 * until `enabled` (a card below the fold waits until it is near the screen).
 */
export function useRanking<K extends RankingKind>(kind: K, p: Period, extra = "", enabled = true) {
  return useQuery({
    enabled,
    queryKey: ["ranking", kind, ...viewKey(p), extra],
    // TypeScript cannot narrow RANKINGS[kind] by a generic K; the schema is still the kind's own.
    queryFn: () =>
      getJson(
        `/api/tracking/rankings/${kind}?${viewQuery(p)}${extra ? "&" + extra : ""}`,
        RANKINGS[kind] as z.ZodType<RankingItem<K>[]>,
      ),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

export function useConversionBySource(p: Period) {
  return useQuery({
    queryKey: ["conversion-by-source", ...viewKey(p)],
    queryFn: () => getJson(`/api/tracking/conversion-by-utm-source?${viewQuery(p)}`, conversionBySource),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

export function useChannels(p: Period) {
  return useQuery({
    queryKey: ["channels", ...viewKey(p)],
    queryFn: () => getJson(`/api/tracking/channels?${viewQuery(p)}`, channelReport),
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}

/** Every WhatsApp-click figure of the period (card, funnel, channels, sources, pages, chart series). */
export function useWhatsapp(p: Period) {
  return useQuery({
    queryKey: ["whatsapp", ...viewKey(p)],
    queryFn: () => getJson(`/api/tracking/whatsapp?${viewQuery(p)}`, whatsappReport),
  });
}

/** A one-day period hour by hour (only asked for when the period is one day). */
export function useHourly(date: string, enabled: boolean) {
  return useQuery({
    queryKey: ["hourly", date],
    queryFn: () => getJson(`/api/tracking/hourly?date=${date}`, hourlyReport),
    enabled,
  });
}
