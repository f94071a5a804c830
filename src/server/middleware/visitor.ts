// Who sent a public write: bot or not, the client's address and its pseudonymous key, set once on the
// context so the rate limit, the handler and the services read the same values.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { clientIp } from "../client_ip.ts";
import { isAutomated } from "../../services/bots.ts";
import { visitorKey, visitorKeysSince, visitorLinkKeys } from "../../services/visitor_key.ts";
import type { MetaClient } from "../../services/meta_event.ts";

/** Sets `c.var.visitor`: the client's key for the month of the request, bot flag and address. */
export function visitor(): MiddlewareHandler<AppEnv> {
  return async function visitorMiddleware(c, next) {
    const { db, config } = c.get("deps");
    const ip = clientIp(c);
    const key = await visitorKey(db, ip, config.ANALYTICS_TZ, c.get("now"));
    c.set("visitor", { key, ip, bot: isAutomated(c.req.header("user-agent")) });
    await next();
  };
}

/** The client's keys for the next months, stored with a page view (services/visitor_key.ts). */
export function visitorLinkKeysOf(c: Context<AppEnv>): Promise<string[]> {
  const { db, config } = c.get("deps");
  return visitorLinkKeys(db, c.get("visitor").ip, config.ANALYTICS_TZ, c.get("now"));
}

/** The client's keys in every month since `since` whose salt still exists (finds its earlier visits). */
export function visitorKeysSinceOf(c: Context<AppEnv>, since: Date): Promise<string[]> {
  const { db, config } = c.get("deps");
  return visitorKeysSince(db, c.get("visitor").ip, config.ANALYTICS_TZ, since, c.get("now"));
}

/** The browser details Meta needs to match an event. */
export function metaClientOf(c: Context<AppEnv>): MetaClient {
  return {
    ip: c.get("visitor").ip,
    userAgent: (c.req.header("user-agent") ?? "").slice(0, 1000),
    cookies: { fbp: getCookie(c, "_fbp"), fbc: getCookie(c, "_fbc") },
  };
}
