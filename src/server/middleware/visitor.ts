// Who sent a public write: bot or not, the client's address and its pseudonymous key, set once on the
// context so the rate limit, the handler and the services read the same values.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { clientIp } from "../client_ip.ts";
import { isAutomated } from "../../services/bots.ts";
import type { MetaClient } from "../../services/meta_event.ts";

/** Sets `c.var.visitor`: the client's key for the month of the request, bot flag and address. */
export function visitor(): MiddlewareHandler<AppEnv> {
  return async function visitorMiddleware(c, next) {
    const ip = clientIp(c);
    const key = await c.get("deps").visitorKeys.key(ip, c.get("now"));
    c.set("visitor", { key, ip, bot: isAutomated(c.req.header("user-agent")) });
    await next();
  };
}

/** The client's keys for the next months, stored with a page view (services/visitor_key.ts). */
export function visitorLinkKeysOf(c: Context<AppEnv>): Promise<string[]> {
  return c.get("deps").visitorKeys.linkKeys(c.get("visitor").ip, c.get("now"));
}

/** The client's keys in every month since `since` whose salt still exists (finds its earlier visits). */
export function visitorKeysSinceOf(c: Context<AppEnv>, since: Date): Promise<string[]> {
  return c.get("deps").visitorKeys.keysSince(c.get("visitor").ip, since, c.get("now"));
}

/** The browser details Meta needs to match an event. */
export function metaClientOf(c: Context<AppEnv>): MetaClient {
  return {
    ip: c.get("visitor").ip,
    userAgent: (c.req.header("user-agent") ?? "").slice(0, 1000),
    cookies: { fbp: getCookie(c, "_fbp"), fbc: getCookie(c, "_fbc") },
  };
}
