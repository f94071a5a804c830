import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJson } from "../../server/body.ts";
import { log } from "../../core/log.ts";
import { adminGuard, requireAdmin } from "../../server/middleware/session.ts";
import { eraseLeads, exportPerson, findPersonLeads, type Subject } from "../../services/lgpd.ts";

/** Most leads erased in one request (a person has a handful; this only bounds the body). */
export const ERASE_MAX_IDS = 500;

const subjectQuery = z.object({
  email: z.string().trim().min(3).max(254).optional(),
  phone: z.string().trim().max(40).refine(
    (v) => (v.match(/\d/g) ?? []).length >= 8,
    "must have at least 8 digits",
  )
    .optional(),
}).superRefine((v, ctx) => {
  if (v.email === undefined && v.phone === undefined) {
    ctx.addIssue({ code: "custom", path: ["email"], message: "give an e-mail or a phone number" });
  } else if (v.email !== undefined && v.phone !== undefined) {
    ctx.addIssue({ code: "custom", path: ["phone"], message: "give an e-mail or a phone number, not both" });
  } else if (v.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(v.email)) {
    ctx.addIssue({ code: "custom", path: ["email"], message: "must be an e-mail address" });
  }
});

const eraseBody = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(ERASE_MAX_IDS),
});

function subjectOf(c: Context<AppEnv>): Subject {
  const q = parseOr400(subjectQuery, { email: c.req.query("email"), phone: c.req.query("phone") });
  return q.email !== undefined ? { email: q.email } : { phone: q.phone! };
}

/**
 * LGPD tools for the administrator: a person's leads by e-mail or phone, a JSON copy of them, and their
 * erasure. Admin-only; the DELETE must be same-origin JSON. Nothing about the person is logged.
 */
export const lgpdApi = new Hono<AppEnv>();
const guard = [adminGuard(), requireAdmin()] as const;

lgpdApi.get("/api/admin/lgpd/leads", ...guard, async (c) => {
  return c.json({ leads: await findPersonLeads(c.get("deps").db, subjectOf(c)) });
});

lgpdApi.get("/api/admin/lgpd/export", ...guard, async (c) => {
  const now = c.get("deps").now?.() ?? new Date();
  const data = await exportPerson(c.get("deps").db, subjectOf(c), now);
  return c.body(JSON.stringify(data, null, 2), 200, {
    "content-type": "application/json; charset=utf-8",
    "content-disposition": `attachment; filename="dados-pessoais-${now.toISOString().slice(0, 10)}.json"`,
  });
});

lgpdApi.delete("/api/admin/lgpd/leads", ...guard, async (c) => {
  const { ids } = await readJson(c, eraseBody, { maxBytes: 16 * 1024 });
  const deleted = await eraseLeads(c.get("deps").db, [...new Set(ids)]);
  // An audit trail without personal data: who asked (the request id) and how much went.
  log.info("lgpd erasure", { requestId: c.get("requestId"), ...deleted });
  return c.json({ deleted });
});
