import { Hono } from "hono";
import type { AppEnv } from "../server/env.ts";
import { checkReadiness, shippedMigrations } from "../services/readiness.ts";

export interface HealthOptions {
  /** Migration file names this build ships; default: read once from `migrations/` on first probe. */
  migrations?: string[];
  /** Longest wait for the database; default 2 s (READINESS_TIMEOUT_MS), below usual probe timeouts. */
  timeoutMs?: number;
}

/**
 * Liveness (`/healthz`: the process answers, no database involved, so a slow database never gets the
 * process restarted) and readiness (`/readyz`: database reachable and every migration applied; else 503;
 * when ready, each background job's latest run: whether it failed and whether it is overdue, no error text).
 */
export function healthRoutes(options: HealthOptions = {}): Hono<AppEnv> {
  const health = new Hono<AppEnv>();
  let expected: Promise<string[]> | undefined = options.migrations && Promise.resolve(options.migrations);
  const noStore = { "cache-control": "no-store" };

  // The version is the release tag or commit (build.ts), so an operator sees what each instance runs.
  health.get(
    "/healthz",
    (c) => c.json({ status: "ok", version: c.get("deps").version ?? "dev" }, 200, noStore),
  );

  health.get("/readyz", async (c) => {
    expected ??= shippedMigrations();
    const result = await checkReadiness(c.get("deps").db, await expected, options.timeoutMs);
    if (result.ready) return c.json({ status: "ready", jobs: result.jobs }, 200, noStore);
    return c.json({ status: "unavailable", reason: result.reason }, 503, noStore);
  });
  return health;
}

/** The probes with their defaults, as the app mounts them (tests build their own with `healthRoutes`). */
export const health = healthRoutes();
