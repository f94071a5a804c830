import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400 } from "../../server/body.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { fullRanking, panelCsv, type RankingKind } from "../../services/panels.ts";
import {
  pageRankingQuery,
  PANEL_EXPORTS,
  panelExportQuery,
  rankingPageQuery,
} from "../../shared/admin_schemas.ts";
import { rangeOf, reportContext } from "./reports.ts";
import { filtersOf } from "../../shared/filters.ts";

/**
 * /api/tracking/export/{panel}.csv: a dashboard panel's rows of the period (the whole ranking, for a
 * ranking) as CSV, in the leads CSV's layouts (`?layout=rfc4180` for the plain one).
 */
export const panelExportsApi = new Hono<AppEnv>();

for (const panel of PANEL_EXPORTS) {
  panelExportsApi.get(`/${panel}.csv`, adminOnly(), async (c) => {
    const { db, tz, now, query } = reportContext(c);
    const q = parseOr400(panelExportQuery, query);
    const { name, text } = await panelCsv(
      panel,
      { db, range: rangeOf(q)!, tz, now, byPath: q.by === "path", filters: filtersOf(q) },
      q.layout,
    );
    return c.body(text, 200, {
      "content-type": "text/csv; charset=utf-8; header=present",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    });
  });
}

/**
 * A ranking's answer when the query asks for a page of it (`limit`, `offset` or `search`): that page, its
 * total in X-Total-Count; null for the top 10 without them (the ranking's own handler answers).
 */
export async function rankingPageOr(c: Context<AppEnv>, kind: RankingKind): Promise<Response | null> {
  const { db, tz, now, query } = reportContext(c);
  if (query.limit === undefined && query.offset === undefined && query.search === undefined) return null;
  const q = parseOr400(pageRankingQuery.and(rankingPageQuery), query);
  const { items, total } = await fullRanking(
    db,
    kind,
    rangeOf(q)!,
    tz,
    now,
    { limit: q.limit ?? 10, offset: q.offset ?? 0, search: q.search || undefined },
    q.by === "path",
    filtersOf(q),
  );
  c.header("x-total-count", String(total));
  return c.json(items);
}
