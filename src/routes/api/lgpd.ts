import { type Context, Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJson } from "../../server/body.ts";
import { log } from "../../core/log.ts";
import { adminOnly } from "../../server/middleware/session.ts";
import { eraseLeads, exportPerson, findPersonLeads, type Subject } from "../../services/lgpd.ts";
import { lgpdEraseBody, lgpdSubjectQuery } from "../../shared/schemas.ts";

function subjectOf(c: Context<AppEnv>): Subject {
  const q = parseOr400(lgpdSubjectQuery, { email: c.req.query("email"), phone: c.req.query("phone") });
  return q.email !== undefined ? { email: q.email } : { phone: q.phone! };
}

/**
 * /api/admin/lgpd: LGPD tools for the administrator: a person's leads by e-mail or phone, a JSON copy of
 * them, and their erasure. Admin-only; the DELETE must be same-origin JSON. Nothing about the person is logged.
 */
export const lgpdApi = new Hono<AppEnv>();

lgpdApi.get("/leads", adminOnly(), async (c) => {
  return c.json({ leads: await findPersonLeads(c.get("deps").db, subjectOf(c)) });
});

lgpdApi.get("/export", adminOnly(), async (c) => {
  const now = c.get("now");
  const data = await exportPerson(c.get("deps").db, subjectOf(c), now);
  return c.body(JSON.stringify(data, null, 2), 200, {
    "content-type": "application/json; charset=utf-8",
    "content-disposition": `attachment; filename="dados-pessoais-${now.toISOString().slice(0, 10)}.json"`,
  });
});

lgpdApi.delete("/leads", adminOnly(), async (c) => {
  const { ids } = await readJson(c, lgpdEraseBody, { maxBytes: 16 * 1024 });
  const { db, config } = c.get("deps");
  const deleted = await eraseLeads(db, [...new Set(ids)], config.ANALYTICS_TZ);
  // An audit trail without personal data: who asked (the request id) and how much went.
  log.info("lgpd erasure", { requestId: c.get("requestId"), ...deleted });
  return c.json({ deleted });
});
