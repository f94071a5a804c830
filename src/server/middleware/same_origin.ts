import type { Context } from "hono";
import { Forbidden } from "../../core/errors.ts";

/**
 * Refuses state-changing requests that do not come from our own pages: the `Origin` header must equal
 * PUBLIC_ORIGIN, or (when a browser omits Origin) `Sec-Fetch-Site` must be `same-origin`. No CORS headers
 * are ever sent, so other sites cannot read our answers either. GET/HEAD/OPTIONS pass. Used by
 * `publicWrite()` and `adminGuard()`.
 */
export function assertSameOrigin(c: Context, publicOrigin: string): void {
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return;
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  const ok = origin ? origin === publicOrigin : site === "same-origin";
  if (!ok) throw new Forbidden("cross-origin request refused");
}
