// The panels' full lists and CSV files. Both ask with the view on screen (its period and its filters,
// queries.ts viewQuery): a full ranking or a file answers for exactly what the dashboard shows.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { PanelExport } from "../../shared/admin_schemas.ts";
import { getPage } from "./api.ts";
import {
  type Period,
  RANKING_CACHE_MS,
  type RankingItem,
  type RankingKind,
  RANKINGS,
  viewQuery,
} from "./queries.ts";

/** The view's query (period and filters) with `extra` (such as `by=path`) set. */
export function panelQuery(p: Period, extra = ""): URLSearchParams {
  const q = new URLSearchParams(viewQuery(p));
  for (const [key, value] of new URLSearchParams(extra)) q.set(key, value);
  return q;
}

/** Where a panel's CSV of the period downloads from. */
export function panelCsvHref(panel: PanelExport, p: Period, extra = ""): string {
  return `/api/tracking/export/${panel}.csv?${panelQuery(p, extra)}`;
}

/** One page of a whole ranking, narrowed to keys containing `search`, and how many match in all. */
export function useRankingPage<K extends RankingKind>(
  kind: K,
  p: Period,
  extra: string,
  search: string,
  page: number,
  pageSize: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: ["ranking-page", kind, p.start, p.end, extra, search, page, pageSize, panelQuery(p).toString()],
    queryFn: () => {
      const q = panelQuery(p, extra);
      q.set("limit", String(pageSize));
      q.set("offset", String(page * pageSize));
      if (search) q.set("search", search);
      return getPage(
        `/api/tracking/rankings/${kind}?${q}`,
        RANKINGS[kind] as unknown as z.ZodType<RankingItem<K>[]>,
      );
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: RANKING_CACHE_MS,
    gcTime: RANKING_CACHE_MS,
  });
}
