// The API's contract, one home for server and dashboard: a zod schema for every request body and query the
// routes parse, and for every JSON answer the dashboard reads (it fetches with getJson(path, Schema)).
// The administrator's part lives in admin_schemas.ts, re-exported below: the dashboard imports that file
// directly, so its bundle never reaches the public pages' modules (click_ids.ts would otherwise become a
// chunk of its own on every public page, past the home page's 100 KB JavaScript budget).
// Request text is trimmed and length-capped and refuses NUL and other control characters (they have no
// business in a name or a URL and break logs and CSV exports).
import { z } from "./zod.ts";
import { CLICK_IDS, type ClickId } from "./click_ids.ts";
import { isLeadEmail, MAX_EMAIL_LENGTH } from "./email.ts";
import { MAX_ENGAGED_MS } from "./engagement_limits.ts";

// ---------------------------------------------------------------------------------------------------------
// Building blocks

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Trimmed text of at most `max` characters, no control characters; may be empty. */
export function text(max: number) {
  return z.string().trim().max(max, `must be at most ${max} characters`).refine(
    (v) => !CONTROL.test(v),
    "must not contain control characters",
  );
}

/** Trimmed, non-empty text. */
export function requiredText(max: number) {
  return text(max).refine((v) => v.length > 0, "is required");
}

/** An optional UTM value: absent, null or empty all mean "none". */
export const utm = text(200).nullish().transform((v) => v ? v : null);

/** Client-generated ids (idempotency key, Meta event id, session id): URL-safe characters only. */
export function token(max: number) {
  return z.string().regex(/^[A-Za-z0-9_.:-]+$/, "must use only letters, digits and _ . : -").min(1).max(max);
}

// The lead form's e-mail rule lives in email.ts: the LGPD lookup (admin_schemas.ts) applies the same one.
export { EMAIL_PATTERN, isLeadEmail, MAX_EMAIL_LENGTH } from "./email.ts";

/**
 * The referring site's host name, nothing else (no scheme, port, path or query): absent, null or empty mean
 * none. Android apps refer as their package name (com.google.android.gm), which is a host name too.
 */
export const referrerHost = z.string().trim().toLowerCase().max(253, "must be at most 253 characters")
  .regex(
    /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/,
    "must be a host name only, such as www.google.com (no scheme, port, path or query)",
  )
  .or(z.literal(""))
  .nullish()
  .transform((v) => v ? v : null);

/** Which click ids the landing URL carried, as flags (never their values); unknown names are refused. */
export const clickIdFlags = z.strictObject(
  Object.fromEntries(CLICK_IDS.map((id) => [id, z.boolean().optional()])) as Record<
    ClickId,
    z.ZodOptional<z.ZodBoolean>
  >,
).nullish().transform((v) => CLICK_IDS.filter((id) => v?.[id] === true));

/** A path on this site (path and query), never a URL with a scheme or another host. */
export function sitePath(max: number) {
  return requiredText(max).refine(
    (v) => /^\/(?![/\\])[^\s\\]*$/.test(v),
    "must be a path on this site, such as /pt-br",
  );
}

// ---------------------------------------------------------------------------------------------------------
// Public writes

/** Body of POST /api/leads (the lead's fields and UTM origin, plus the idempotency key, Meta event id and honeypot). */
export const leadBody = z.strictObject({
  name: requiredText(120),
  email: requiredText(MAX_EMAIL_LENGTH).refine(isLeadEmail, "must be a valid e-mail address"),
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
  // The "Quero receber o contato pelo WhatsApp" box (shown only when WhatsApp is configured): ticked = true.
  whatsappConsent: z.boolean().nullish(),
  // Honeypot: hidden from people, so anything here was typed by a bot.
  website: z.string().max(2000).nullish(),
});

const trackingCommon = {
  source: requiredText(2000),
  sessionId: token(100).nullish().transform((v) => v ?? ""),
  utmSource: utm,
  utmCampaign: utm,
  utmMedium: utm,
  // The session's touch: the referring site's host (only another site's) and the landing URL's click ids.
  referrer: referrerHost,
  clickIds: clickIdFlags,
};

/** Body of POST /api/tracking/conversion. */
export const trackingEventBody = z.strictObject(trackingCommon);

/**
 * Body of POST /api/tracking/click: the plan click's fields, plus an optional `kind` (absent or null: a plan
 * button, docs/PRODUCT.md, _What is tracked and when_; `whatsapp`: a WhatsApp button or link, whose `source`
 * is the page it is on).
 */
export const trackingClickBody = z.strictObject({
  ...trackingCommon,
  kind: z.enum(["plan", "whatsapp"]).nullish().transform((v) => v ?? "plan"),
}).superRefine((v, ctx) => {
  if (v.kind === "whatsapp" && !/^\/(?![/\\])[^\s\\]*$/.test(v.source)) {
    ctx.addIssue({
      code: "custom",
      path: ["source"],
      message: "must be a path on this site, such as /pt-br",
    });
  }
});

/** Body of POST /api/tracking/visit. */
export const trackingVisitBody = z.strictObject({
  ...trackingCommon,
  // The page viewed (path and query).
  source: sitePath(2000),
  utmTerm: utm,
  utmContent: utm,
  entry: z.boolean().nullish().transform((v) => v === true),
});

export { MAX_ENGAGED_MS } from "./engagement_limits.ts";

/** Body of POST /api/tracking/engagement: a page's visible time since its previous beacon. */
export const trackingEngagementBody = z.strictObject({
  // The page (path and query), as its page view sent it.
  source: sitePath(2000),
  sessionId: token(100),
  engagedMs: z.number().int("must be a whole number of milliseconds").min(1, "must be at least 1")
    .max(MAX_ENGAGED_MS, `must be at most ${MAX_ENGAGED_MS}`),
});

const customValue = z.union([text(500), z.number().finite(), z.boolean(), z.null()]);

/**
 * Body of POST /api/meta/event. The browser only ever sends the `Lead` of a lead it just stored (the pixel's
 * other events never reach the server), so that is the only event accepted. Its `customData` is accepted for
 * compatibility and ignored: what goes to Meta is decided from the stored lead (services/leads.ts).
 */
export const metaEventBody = z.strictObject({
  eventName: z.literal("Lead", "must be Lead, the only event this site sends from the server"),
  eventSourceUrl: z.url({ protocol: /^https?$/ }).max(2000),
  customData: z.record(z.string().regex(/^[A-Za-z0-9_]{1,50}$/), customValue)
    .refine((v) => Object.keys(v).length <= 30, "must have at most 30 keys")
    .optional(),
  eventId: token(100),
});

export * from "./admin_schemas.ts";
