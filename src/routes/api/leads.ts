import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../server/env.ts";
import { parseOr400, readJsonValue } from "../../server/body.ts";
import { sameOrigin } from "../../server/middleware/same_origin.ts";
import { LIMITS } from "../../services/rate_limit.ts";
import { saveLead } from "../../services/leads.ts";
import {
  clickIdFlags,
  EMAIL_PATTERN,
  referrerHost,
  requiredText,
  sitePath,
  text,
  token,
  utm,
} from "./schemas.ts";
import { clientKeysSince, isBotRequest, limitAndKey, metaClient, nowOf } from "./visitor.ts";

export const LEAD_MAX_BYTES = 16 * 1024;

/** Body of POST /api/leads (spec section 7, plus the idempotency key, Meta event id and honeypot). */
export const leadBody = z.strictObject({
  name: requiredText(120),
  email: requiredText(254).refine((v) => EMAIL_PATTERN.test(v), "must be a valid e-mail address"),
  whatsapp: requiredText(40),
  plan: text(60),
  utmSource: utm,
  utmCampaign: utm,
  utmMedium: utm,
  page: text(2000).nullish(),
  idempotencyKey: token(100).nullish(),
  eventId: token(100).nullish(),
  sessionId: token(100).nullish(),
  // When the visitor pressed submit (epoch ms): a lead re-sent later from the browser outbox keeps its time.
  submittedAt: z.number().int().nullish(),
  // The converting session's touch (its first page, referring host and click-id flags): the lead's last touch.
  referrer: referrerHost,
  clickIds: clickIdFlags,
  landingPage: sitePath(2000).nullish(),
  // Honeypot: hidden from people, so anything here was typed by a bot.
  website: z.string().max(2000).nullish(),
});

/** POST /api/leads: same origin only; 201 `{ id }` once the lead is committed. */
export function leadsApi(origin: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/api/leads", sameOrigin({ origin }));
  app.post("/api/leads", async (c) => {
    const bot = isBotRequest(c);
    // Read before counting, so an aborted upload uses none of the quota; invalid bodies still count.
    const value = await readJsonValue(c, { maxBytes: LEAD_MAX_BYTES });
    if (!bot) await limitAndKey(c, LIMITS.leads);
    const body = parseOr400(leadBody, value);
    const headers = { "cache-control": "no-store" };
    // Bots and honeypot fills get the same answer as people, so they learn nothing from it.
    if (bot || body.website) return c.json({ id: 0 }, 201, headers);
    const deps = c.get("deps");
    const { id } = await saveLead(deps.db, deps.config, {
      name: body.name,
      email: body.email,
      whatsapp: body.whatsapp,
      plan: body.plan,
      utmSource: body.utmSource,
      utmCampaign: body.utmCampaign,
      utmMedium: body.utmMedium,
      page: body.page || null,
      idempotencyKey: body.idempotencyKey ?? null,
      eventId: body.eventId ?? null,
      sessionId: body.sessionId ?? null,
      submittedAt: body.submittedAt ?? null,
      referrer: body.referrer,
      clickIds: body.clickIds,
      landingPage: body.landingPage ?? null,
    }, {
      client: metaClient(c),
      now: nowOf(c),
      keysSince: (since) => clientKeysSince(c, since, nowOf(c)),
    });
    return c.json({ id }, 201, headers);
  });
  return app;
}
