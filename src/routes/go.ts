// GET /go/checkout?plan=micro|pro|premium: where a server-rendered plan button leads when no script runs
// (JavaScript off, or a tap before the bootstrap that the page could not hold). It counts the plan click like
// the bootstrap's beacon would (source `pricing_{plan}_plan`, with the visit's UTM origin) and answers 302 to
// that plan's checkout, with the visit's origin appended: the UTM parameters and ad click ids of the link's
// own query, else of the page the visitor tapped on (the Referer, a same-origin page's full address under our
// Referrer-Policy). Only the configured checkout links are ever a destination: the query chooses a plan, never
// a URL. See README.md, "Leads, tracking and Meta delivery".
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../server/env.ts";
import { parseOr400 } from "../server/body.ts";
import { visitor } from "../server/middleware/visitor.ts";
import { recordEvent } from "../services/tracking.ts";
import { log } from "../core/log.ts";
import { text } from "../shared/schemas.ts";
import { CLICK_IDS } from "../shared/click_ids.ts";
import {
  type CheckoutOrigin,
  ORIGIN_PARAMS,
  ORIGIN_VALUE_MAX,
  originOf,
  withOrigin,
} from "../shared/checkout_origin.ts";
import { SITE } from "../site.ts";

const PLAN_KEYS = SITE.plans.map((p) => p.key);

/** The link's query: a known plan, and origin parameters of sane length (any other parameter is ignored). */
const checkoutQuery = z.object({
  plan: z.string().refine((v) => PLAN_KEYS.includes(v as never), `must be one of ${PLAN_KEYS.join(", ")}`),
  ...Object.fromEntries(ORIGIN_PARAMS.map((name) => [name, text(ORIGIN_VALUE_MAX).optional()])),
});

/** The origin carried by the Referer, when it is a page of this site. */
function refererOrigin(referer: string | undefined, ownOrigin: string): CheckoutOrigin {
  if (!referer) return {};
  try {
    const url = new URL(referer);
    return url.origin === ownOrigin ? originOf(url.search) : {};
  } catch {
    return {};
  }
}

export const go = new Hono<AppEnv>();

go.get("/go/checkout", visitor(), async (c) => {
  const query = parseOr400(checkoutQuery, c.req.query());
  const plan = SITE.plans.find((p) => p.key === query.plan)!;
  const { config, db } = c.get("deps");
  const ownOrigin = new URL(config.PUBLIC_ORIGIN).origin;
  const origin: CheckoutOrigin = {
    ...refererOrigin(c.req.header("referer"), ownOrigin),
    ...originOf(new URL(c.req.url).searchParams),
  };
  // A HEAD, a browser's speculative prefetch or a bot is not a tap.
  const prefetch = /prefetch|prerender/i.test(`${c.req.header("sec-purpose")} ${c.req.header("purpose")}`);
  const { key, bot } = c.get("visitor");
  if (c.req.method === "GET" && !prefetch && !bot) {
    const utm = (v: string | undefined) => v?.slice(0, 200) ?? null;
    try {
      await recordEvent(
        db,
        "click",
        {
          source: `pricing_${plan.key}_plan`,
          sessionId: "",
          utmSource: utm(origin.utm_source),
          utmCampaign: utm(origin.utm_campaign),
          utmMedium: utm(origin.utm_medium),
          referrer: null,
          clickIds: CLICK_IDS.filter((id) => origin[id]),
        },
        key,
        c.get("now"),
        undefined,
        new URL(ownOrigin).hostname,
      );
    } catch (error) {
      // Over the client's tracking limit or a failed write: the visitor still reaches the checkout.
      log.warn("checkout click not counted", { plan: plan.key, error: String(error) });
    }
  }
  c.header("cache-control", "no-store");
  return c.redirect(withOrigin(plan.checkoutUrl, origin), 302);
});
