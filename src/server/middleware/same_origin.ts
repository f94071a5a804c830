import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { Forbidden } from "../../core/errors.ts";

export interface SameOriginOptions {
  /** The site's public origin (PUBLIC_ORIGIN). */
  origin: string;
}

/**
 * Refuses state-changing requests that do not come from our own pages: the `Origin` header must equal
 * PUBLIC_ORIGIN, or (when a browser omits Origin) `Sec-Fetch-Site` must be `same-origin`. No CORS headers
 * are ever sent, so other sites cannot read our answers either. GET/HEAD/OPTIONS pass.
 */
export function sameOrigin(options: SameOriginOptions): MiddlewareHandler<AppEnv> {
  return function sameOriginMiddleware(c, next) {
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    const ok = origin ? origin === options.origin : site === "same-origin";
    if (!ok) throw new Forbidden("cross-origin request refused");
    return next();
  };
}
