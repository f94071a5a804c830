import { Hono } from "hono";
import type { AppEnv } from "../server/env.ts";

/** Liveness and readiness probes. */
export const health = new Hono<AppEnv>();

health.get("/healthz", (c) => c.json({ status: "ok" }, 200, { "cache-control": "no-store" }));

health.get("/readyz", async (c) => {
  try {
    await c.get("deps").db.query("select 1 from schema_migrations limit 1");
    return c.json({ status: "ready" }, 200, { "cache-control": "no-store" });
  } catch {
    return c.json({ status: "unavailable" }, 503, { "cache-control": "no-store" });
  }
});
