// Request rate limits: one table of limits, one fixed-window counter per client and limit, shared by every
// instance through the database. `rateLimit(LIMITS.x)` (server/middleware/rate_limit.ts) counts a request
// with `consume`; tracking visits and clicks are counted by the same rule inside the statement that stores
// them (services/tracking.ts: group commit, one round trip per batch), with the same bucket and window.
// The sign-in throttle (services/auth.ts) is not a request counter and stays apart: it says why.
import type { Db } from "../db/client.ts";
import { incrementWindow } from "../db/rate_limits.ts";
import { RateLimited } from "../core/errors.ts";

export interface Limit {
  /** Name of the limit, e.g. "leads": the prefix of its counters' buckets. */
  name: string;
  /** Requests allowed per window. */
  max: number;
  /** Window length in seconds. */
  windowSeconds: number;
}

/** Every request limit (requests per client key and window). */
export const LIMITS = {
  leads: { name: "leads", max: 10, windowSeconds: 600 },
  tracking: { name: "tracking", max: 120, windowSeconds: 60 },
  meta: { name: "meta", max: 120, windowSeconds: 60 },
} satisfies Record<string, Limit>;

/** One client's counter for the window `now` falls in, and the seconds until that window ends (at least 1). */
export interface Quota {
  bucket: string;
  windowStart: Date;
  retryAfterSeconds: number;
}

/** The counter of `key` (a client key, never a raw IP) under `limit` at `now`. */
export function quotaOf(limit: Limit, key: string, now: Date): Quota {
  const windowMs = limit.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return {
    bucket: `${limit.name}:${key}`,
    windowStart: new Date(start),
    retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)),
  };
}

/** Counts one request of `key` against `limit`; throws RateLimited with the seconds until the window ends. */
export async function consume(db: Db, limit: Limit, key: string, now: Date): Promise<void> {
  const quota = quotaOf(limit, key, now);
  const hits = await incrementWindow(db, quota.bucket, quota.windowStart);
  if (hits > limit.max) throw new RateLimited(quota.retryAfterSeconds);
}
