import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

export interface SecurityHeadersOptions {
  /** Public origin; HSTS is sent only when it is https. */
  publicOrigin: string;
  /** Extra CSP sources per directive (third parties the site is configured to use). */
  extraSources?: Partial<Record<"script" | "connect" | "img" | "frame", string[]>>;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// Random bytes are drawn from the system's CSPRNG 4 KB at a time (256 nonces) and each byte is used once:
// one getRandomValues call and its buffer per response cost more than the rest of a small answer's headers.
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** 16 fresh random bytes in base64 (24 characters). */
export function base64Nonce(): string {
  if (poolAt + 16 > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  poolAt += 16;
  return base64Of16(pool, poolAt - 16);
}

/** The base64 form of the 16 bytes of `bytes` from `at` (what `btoa` gives, without the string detour). */
export function base64Of16(bytes: Uint8Array, at: number): string {
  let out = "";
  for (let i = at; i < at + 15; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + BASE64[n & 63];
  }
  const last = bytes[at + 15];
  return out + BASE64[last >> 2] + BASE64[(last & 3) << 4] + "==";
}

/**
 * Per-request id and CSP nonce, and the security headers every response carries. Scripts run only with
 * the nonce ('strict-dynamic' lets the pixel and tag manager loaders add theirs); no framing; every `/api/`
 * answer is `no-store`.
 */
export function securityHeaders(options: SecurityHeadersOptions): MiddlewareHandler<AppEnv> {
  const https = options.publicOrigin.startsWith("https:");
  const extra = options.extraSources ?? {};
  const list = (items: string[] = []) => items.length ? " " + items.join(" ") : "";
  // The policy is the same for every answer but the nonce: built once, around the nonce's place.
  const [cspBefore, cspAfter] = [
    "default-src 'self'",
    `script-src 'nonce-\0' 'strict-dynamic' https:${list(extra.script)}`,
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
    const nonce = base64Nonce();
    c.set("nonce", nonce);
    // The request log (mounted first) normally sets it already.
    if (!c.get("requestId")) {
      c.set("requestId", c.req.header("x-request-id")?.match(/^[\w-]{1,64}$/)?.[0] ?? crypto.randomUUID());
    }
    await next();
    const h = c.res.headers;
    h.set("x-request-id", c.get("requestId"));
    h.set("content-security-policy", cspBefore + nonce + cspAfter);
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
