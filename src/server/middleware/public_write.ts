import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { type ReadJsonOptions, readJsonValue } from "../body.ts";
import { assertSameOrigin } from "./same_origin.ts";

/**
 * The rules of every public POST (tracking, leads, Meta events): from our own pages only (same_origin.ts),
 * a JSON body within `maxBytes` (413 above, 415 for another type, 400 when not JSON). The body's value goes
 * to `c.var.body` unchecked: the rate limit counts it first (an aborted upload counts nothing, an invalid
 * body counts), then the handler parses it with its schema (shared/schemas.ts).
 */
export function publicWrite(options: ReadJsonOptions): MiddlewareHandler<AppEnv> {
  return async function publicWriteMiddleware(c, next) {
    assertSameOrigin(c, c.get("deps").config.PUBLIC_ORIGIN);
    c.set("body", await readJsonValue(c, options));
    await next();
  };
}
