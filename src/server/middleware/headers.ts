import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

export interface SecurityHeadersOptions {
  /** Public origin; HSTS is sent only when it is https. */
  publicOrigin: string;
  /** Extra CSP sources per directive (third parties the site is configured to use). */
  extraSources?: Partial<Record<"script" | "connect" | "img" | "frame", string[]>>;
}

/**
 * Per-request id and the security headers every response carries. Scripts run only when a page's answer
 * names them by hash (its inline scripts: render.tsx sets `scriptHashes`); 'strict-dynamic' passes the trust
 * on to what they load (the bootstrap, the pixel and tag manager loaders), so an answer without hashes runs
 * no script at all. No framing; every `/api/` answer is `no-store`.
 */
export function securityHeaders(options: SecurityHeadersOptions): MiddlewareHandler<AppEnv> {
  const https = options.publicOrigin.startsWith("https:");
  const extra = options.extraSources ?? {};
  const list = (items: string[] = []) => items.length ? " " + items.join(" ") : "";
  // The policy is the same for every answer but the hashes: built once, around their place.
  const [cspBefore, cspAfter] = [
    "default-src 'self'",
    `script-src \0'strict-dynamic' https:${list(extra.script)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: https://i.ytimg.com https://www.facebook.com${list(extra.img)}`,
    "font-src 'self'",
    `connect-src 'self'${list(extra.connect)}`,
    `frame-src https://www.youtube-nocookie.com${list(extra.frame)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ").split("\0");
  return async function securityHeadersMiddleware(c, next) {
    // The request log (mounted first) normally sets it already.
    if (!c.get("requestId")) {
      c.set("requestId", c.req.header("x-request-id")?.match(/^[\w-]{1,64}$/)?.[0] ?? crypto.randomUUID());
    }
    await next();
    const h = c.res.headers;
    h.set("x-request-id", c.get("requestId"));
    const hashes = c.get("scriptHashes");
    h.set("content-security-policy", hashes ? cspBefore + hashes + " " + cspAfter : cspBefore + cspAfter);
    h.set("x-content-type-options", "nosniff");
    h.set("referrer-policy", "strict-origin-when-cross-origin");
    h.set("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    h.set("x-frame-options", "DENY");
    h.set("cross-origin-opener-policy", "same-origin");
    if (https) h.set("strict-transport-security", "max-age=31536000; includeSubDomains");
    // API answers carry leads, sessions and per-visitor state: no shared or browser cache ever keeps one,
    // whatever the handler (or an error path) set.
    if (c.req.path.startsWith("/api/")) h.set("cache-control", "no-store");
    // No banner that names the software or its version.
    h.delete("x-powered-by");
    h.delete("server");
  };
}
