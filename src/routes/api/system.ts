import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { systemHealth } from "../../services/system_health.ts";

/**
 * /api/admin/system, the dashboard's "Saúde do sistema": this build's version, each background job's latest
 * run (what it did, how long, its last success and failure) and the lead destinations failing now.
 */
export const systemApi = new Hono<AppEnv>();

systemApi.get("/system", adminOnly(), async (c) => {
  const { db, version } = c.get("deps");
  return c.json(await systemHealth(db, version ?? "dev", c.get("now")));
});
