import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import type { AppEnv } from "./env.ts";
import { type Cidr, formatIp, inCidr, type Ip, parseIp } from "../core/ip.ts";

/** A usable client address: parses strictly and is not the unspecified address (0.0.0.0, ::). */
function usable(text: string): Ip | null {
  const ip = parseIp(text);
  return ip && ip.bytes.some((b) => b !== 0) ? ip : null;
}

/**
 * The client address from a trusted proxy's `X-Forwarded-For`: walking from the right (hops appended by our
 * own proxies), the first hop that is not itself a trusted proxy. Null when a hop is not an IP address
 * (`aa`, `::`, a port): the header is then ignored, not half-believed.
 */
export function forwardedClient(header: string, trusted: Cidr[]): string | null {
  const hops = header.split(",").map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const ip = usable(hops[i]);
    if (!ip) return null;
    if (i === 0 || !trusted.some((cidr) => inCidr(ip, cidr))) return formatIp(ip);
  }
  return null;
}

/**
 * The client's IP: the TCP peer, or, when TRUST_PROXY=1 and the peer is one of TRUSTED_PROXIES, the client
 * its `X-Forwarded-For` names (anything left of our own proxies' hops is client-controlled). Never stored:
 * see services/visitor_key.ts.
 */
export function clientIp(c: Context<AppEnv>): string {
  let ip = clientIps.get(c.req.raw);
  if (ip === undefined) clientIps.set(c.req.raw, ip = resolveClientIp(c));
  return ip;
}

/** One answer per request: a visit asks for its client's address several times (key, link keys, Meta). */
const clientIps = new WeakMap<Request, string>();

function resolveClientIp(c: Context<AppEnv>): string {
  let peer = "0.0.0.0"; // app.request() in tests has no connection
  try {
    peer = getConnInfo(c).remote.address || peer;
  } catch {
    // no connection
  }
  const { TRUST_PROXY, TRUSTED_PROXIES } = c.get("deps").config;
  if (TRUST_PROXY) {
    const peerIp = parseIp(peer);
    if (peerIp && TRUSTED_PROXIES.some((cidr) => inCidr(peerIp, cidr))) {
      const forwarded = forwardedClient(c.req.header("x-forwarded-for") ?? "", TRUSTED_PROXIES);
      if (forwarded) return forwarded;
    }
  }
  return peer;
}
