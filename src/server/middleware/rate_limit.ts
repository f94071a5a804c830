import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { consume, type Limit } from "../../services/rate_limit.ts";

/**
 * Counts the request against `limit` for the client `visitor()` identified: 429 with Retry-After when over.
 * Bots are answered like people and counted nowhere, so they use no one's quota.
 */
export function rateLimit(limit: Limit): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const visitor = c.get("visitor");
    if (!visitor.bot) await consume(c.get("deps").db, limit, visitor.key, c.get("now"));
    await next();
  };
}
