// What the public POST handlers need to know about the caller: bot or not, its pseudonymous key for rate
// limits and counting, and (for Meta only, never stored beyond delivery) its IP, user agent and cookies.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../server/env.ts";
import { clientIp } from "../../server/client_ip.ts";
import { isAutomated } from "../../services/bots.ts";
import { consume, type Limit } from "../../services/rate_limit.ts";
import type { MetaClient } from "../../services/meta_event.ts";

/** The request's clock (tests may fix it). */
export function nowOf(c: Context<AppEnv>): Date {
  return c.get("deps").now?.() ?? new Date();
}

/** True when the caller is a crawler or automated browser: answer normally, count nothing. */
export function isBotRequest(c: Context<AppEnv>): boolean {
  return isAutomated(c.req.header("user-agent"));
}

/** The client's pseudonymous key for the month of `now` (services/visitor_key.ts). */
export function clientKey(c: Context<AppEnv>, now: Date = nowOf(c)): Promise<string> {
  return c.get("deps").visitorKeys.key(clientIp(c), now);
}

/** The client's keys for the next months, stored with a page view (services/visitor_key.ts). */
export function clientLinkKeys(c: Context<AppEnv>, now: Date): Promise<string[]> {
  return c.get("deps").visitorKeys.linkKeys(clientIp(c), now);
}

/** The client's keys in every month since `since` whose salt still exists (finds its earlier visits). */
export function clientKeysSince(c: Context<AppEnv>, since: Date, now: Date): Promise<string[]> {
  return c.get("deps").visitorKeys.keysSince(clientIp(c), since, now);
}

/** Counts the request against `limit` for this client (429 when over) and returns the client's key. */
export async function limitAndKey(c: Context<AppEnv>, limit: Limit): Promise<string> {
  const now = nowOf(c);
  const key = await clientKey(c, now);
  await consume(c.get("deps").db, limit, key, now);
  return key;
}

/** The browser details Meta needs to match an event. */
export function metaClient(c: Context<AppEnv>): MetaClient {
  return {
    ip: clientIp(c),
    userAgent: (c.req.header("user-agent") ?? "").slice(0, 1000),
    cookies: { fbp: getCookie(c, "_fbp"), fbc: getCookie(c, "_fbc") },
  };
}
