import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import type { AppEnv } from "./env.ts";

/**
 * The client's IP: the TCP peer, or the right-most `X-Forwarded-For` hop when TRUST_PROXY=1 (the hop our
 * own proxy appended; anything left of it is client-controlled). Never stored: see services/visitor_key.ts.
 */
export function clientIp(c: Context<AppEnv>): string {
  if (c.get("deps").config.TRUST_PROXY) {
    const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
    const last = hops.at(-1);
    if (last && /^[0-9a-fA-F:.]{2,45}$/.test(last)) return last;
  }
  try {
    const addr = getConnInfo(c).remote.address;
    if (addr) return addr;
  } catch {
    // app.request() in tests has no connection
  }
  return "0.0.0.0";
}
