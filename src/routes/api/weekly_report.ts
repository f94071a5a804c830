import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { readJson } from "../../server/body.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { setReportEnabled, weeklyReportStatus } from "../../services/weekly_report.ts";
import { weeklyReportSwitch } from "../../shared/admin_schemas.ts";

/**
 * /api/admin/weekly-report, the dashboard's "Relatório semanal por e-mail" switch: GET says whether it is on,
 * whether SMTP is configured, who receives it and how the latest week went; PUT `{ enabled }` (same-origin
 * JSON) turns it on or off and answers the same. Admin-only.
 */
export const weeklyReportApi = new Hono<AppEnv>();

weeklyReportApi.get("/weekly-report", adminOnly(), async (c) => {
  const { db, config } = c.get("deps");
  return c.json(await weeklyReportStatus(db, config));
});

weeklyReportApi.put("/weekly-report", adminOnly(), async (c) => {
  const { enabled } = await readJson(c, weeklyReportSwitch, { maxBytes: 256 });
  const { db, config } = c.get("deps");
  await setReportEnabled(db, enabled, c.get("now"));
  return c.json(await weeklyReportStatus(db, config));
});
