// The key a page view is counted under in "Páginas mais visitadas": the path plus query the browser sent,
// without the ad click ids (a new value on every ad click: the presence is kept as a flag, visits.click_ids)
// and with the path in one form, without a trailing slash (`/pt-br/` and `/pt-br` are one page). The same
// rule, in SQL, rewrote the rows stored before it (migrations/00015_page_keys.sql).
import { CLICK_IDS } from "./click_ids.ts";

const DROPPED = new Set<string>(CLICK_IDS);

/** A tracked page (path, optional ?query, optional #fragment) as its page key. */
export function pageKey(page: string): string {
  const hash = page.indexOf("#");
  const withoutHash = hash < 0 ? page : page.slice(0, hash);
  const q = withoutHash.indexOf("?");
  const path = q < 0 ? withoutHash : withoutHash.slice(0, q);
  const query = q < 0 ? "" : withoutHash.slice(q + 1);
  const kept = query.split("&").filter((pair) => pair !== "" && !DROPPED.has(pairName(pair)));
  return (path.replace(/\/+$/, "") || "/") + (kept.length ? "?" + kept.join("&") : "");
}

/** A query pair's name as a browser reads it (`fbclid=1`, `FBCLID`, `fb%63lid` are all fbclid). */
function pairName(pair: string): string {
  const eq = pair.indexOf("=");
  const raw = (eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, " ");
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** A page key's path alone (the "por caminho" grouping). */
export function pagePathOf(key: string): string {
  const q = key.indexOf("?");
  return q < 0 ? key : key.slice(0, q);
}
