import type { Db } from "../db/client.ts";
import { incrementWindow } from "../db/rate_limits.ts";
import { RateLimited } from "../core/errors.ts";

export interface Limit {
  /** Name of the limit, e.g. "leads". */
  name: string;
  /** Requests allowed per window. */
  max: number;
  /** Window length in seconds. */
  windowSeconds: number;
}

/** Common limits (requests per client). */
export const LIMITS = {
  leads: { name: "leads", max: 10, windowSeconds: 600 },
  tracking: { name: "tracking", max: 120, windowSeconds: 60 },
} satisfies Record<string, Limit>;

/** The fixed window of `limit` that `now` falls in: its start, and the seconds until it ends (at least 1). */
export function windowOf(limit: Limit, now: Date): { start: Date; retryAfterSeconds: number } {
  const windowMs = limit.windowSeconds * 1000;
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  return {
    start,
    retryAfterSeconds: Math.max(1, Math.ceil((start.getTime() + windowMs - now.getTime()) / 1000)),
  };
}

/**
 * Counts one request of `key` (a client key, never a raw IP) against `limit` in the database, so every
 * instance shares the count. Throws RateLimited with the seconds until the window ends.
 */
export async function consume(db: Db, limit: Limit, key: string, now = new Date()): Promise<void> {
  const { start, retryAfterSeconds } = windowOf(limit, now);
  const hits = await incrementWindow(db, `${limit.name}:${key}`, start);
  if (hits > limit.max) throw new RateLimited(retryAfterSeconds);
}
