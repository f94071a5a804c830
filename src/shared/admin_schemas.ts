// The administrator's part of the API contract (shared/schemas.ts re-exports it): the sign-in, dashboard,
// LGPD and delivery requests, every answer the dashboard reads, and the error codes it words. It imports
// nothing the public pages load, so the dashboard's bundle shares no module with them.
import { z } from "./zod.ts";
import { type DailyCount, daysInclusive, isDay, MAX_RANGE_DAYS } from "./dashboard_math.ts";
import { isLeadEmail, MAX_EMAIL_LENGTH } from "./email.ts";
import { filterQuery } from "./filters.ts";

// ---------------------------------------------------------------------------------------------------------
// Administrator: sign-in and password

/** Longest password accepted: longer inputs are refused before any hashing (no CPU-cost abuse). */
export const MAX_PASSWORD_LENGTH = 128;
/** Shortest new password: the dashboard's 'Senha muito curta' below it. */
export const MIN_PASSWORD_LENGTH = 8;

/** Body of POST /api/admin/login. */
export const loginBody = z.object({
  email: z.string().trim().min(1, "required").max(254, "too long"),
  password: z.string().min(1, "required").max(
    MAX_PASSWORD_LENGTH,
    `at most ${MAX_PASSWORD_LENGTH} characters`,
  ),
});

/** Body of POST /api/admin/change-password. */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, "required").max(MAX_PASSWORD_LENGTH, "too long"),
  newPassword: z.string()
    .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`),
});

// ---------------------------------------------------------------------------------------------------------
// Administrator: dashboard queries

const day = z.string().refine(isDay, "must be a date written yyyy-MM-dd");

/** `?startDate&endDate`, both or neither, in order, at most MAX_RANGE_DAYS days. */
export const optionalRange = z.object({ startDate: day.optional(), endDate: day.optional() }).superRefine(
  (v, ctx) => {
    if (Boolean(v.startDate) !== Boolean(v.endDate)) {
      const missing = v.startDate ? "endDate" : "startDate";
      ctx.addIssue({ code: "custom", path: [missing], message: "startDate and endDate go together" });
    } else if (v.startDate && v.endDate) {
      if (v.endDate < v.startDate) {
        ctx.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
      } else if (daysInclusive(v.startDate, v.endDate) > MAX_RANGE_DAYS) {
        ctx.addIssue({
          code: "custom",
          path: ["endDate"],
          message: `the period may span at most ${MAX_RANGE_DAYS} days`,
        });
      }
    }
  },
);

/** `?startDate&endDate`, required. */
export const requiredRange = optionalRange.superRefine((v, ctx) => {
  if (!v.startDate && !v.endDate) {
    ctx.addIssue({ code: "custom", path: ["startDate"], message: "required" });
    ctx.addIssue({ code: "custom", path: ["endDate"], message: "required" });
  }
});

/** A dashboard report's query: the period, required, and the filters (shared/filters.ts). */
export const filteredRange = requiredRange.and(filterQuery);

/** GET /api/tracking/stats: the period (both dates or neither) and the filters. */
export const statsQuery = optionalRange.and(filterQuery);

/** GET /api/tracking/rankings/pages: the period, and `by=path` to group the pages by path alone. */
export const pageRankingQuery = filteredRange.and(
  z.object({ by: z.enum(["page", "path"]).optional() }),
);

/** `?days=n` (the last n days) or `?startDate&endDate`. */
export const daysOrRange = optionalRange.and(
  z.object({ days: z.coerce.number().int().min(1).max(MAX_RANGE_DAYS).optional() }),
).and(filterQuery).superRefine((v, ctx) => {
  if (v.days === undefined && !v.startDate) {
    ctx.addIssue({ code: "custom", path: ["days"], message: "give days, or startDate and endDate" });
  }
});

/** Lead plans a filter may name ("unknown": a plan the site does not offer). */
export const LEAD_PLANS = ["micro", "pro", "premium", "enterprise", "unknown"] as const;

/** The lead list's and export's query: period, search, plan, source, order and page. */
export const leadQuery = optionalRange.and(z.object({
  q: z.string().trim().max(100, "at most 100 characters").optional(),
  plan: z.enum(LEAD_PLANS).optional(),
  utmSource: z.string().trim().max(200, "at most 200 characters").optional(),
  sort: z.enum(["newest", "oldest"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
})).and(filterQuery);

/**
 * The CSV export's query: the lead list's, and its layout (by default `excel-br`: BOM, `;`, decimal comma,
 * what a pt-BR spreadsheet opens as columns; `rfc4180`: no BOM, `,`, decimal point).
 */
export const CSV_LAYOUTS = ["excel-br", "rfc4180"] as const;
export type CsvLayout = (typeof CSV_LAYOUTS)[number];
export const csvExportQuery = leadQuery.and(z.object({ layout: z.enum(CSV_LAYOUTS).optional() }));

/**
 * A ranking's page (`?limit`, `?offset`, `?search`: keys containing it, any case). Without any of them a
 * ranking answers its top 10, as before; with one, that page of the whole ranking and its total in
 * X-Total-Count.
 */
export const rankingPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
  search: z.string().trim().max(200, "at most 200 characters").optional(),
});

/** The panels whose rows export as CSV (services/panels.ts), by the name in /api/tracking/export/{panel}. */
export const PANEL_EXPORTS = [
  "summary",
  "daily",
  "channels",
  "sources",
  "utm-source",
  "utm-campaign",
  "pages",
  "entry-pages",
  "conversion-by-utm-source",
  "utm-content",
  "utm-term",
] as const;
export type PanelExport = typeof PANEL_EXPORTS[number];

/** A panel export's query: the period, its layout and, for pages, `by=path`. */
export const panelExportQuery = filteredRange.and(z.object({
  layout: z.enum(CSV_LAYOUTS).optional(),
  by: z.enum(["page", "path"]).optional(),
}));

// ---------------------------------------------------------------------------------------------------------
// Administrator: LGPD and deliveries

/** Most leads erased in one request (a person has a handful; this only bounds the body). */
export const ERASE_MAX_IDS = 500;

/**
 * `?email=` or `?phone=` (one of them): whose leads the LGPD tools look up. The e-mail follows the lead form's
 * own rule, so every address a lead could leave can be looked up.
 */
export const lgpdSubjectQuery = z.object({
  email: z.string().trim().min(1, "required").max(MAX_EMAIL_LENGTH, `at most ${MAX_EMAIL_LENGTH} characters`)
    .optional(),
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
  } else if (v.email !== undefined && !isLeadEmail(v.email)) {
    ctx.addIssue({ code: "custom", path: ["email"], message: "must be an e-mail address" });
  }
});

/** Body of DELETE /api/admin/lgpd/leads. */
export const lgpdEraseBody = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(ERASE_MAX_IDS),
});

/** Most leads whose deliveries one request may ask for (a page of the lead list is 25). */
export const DELIVERIES_MAX_LEADS = 100;

/** Where a lead is delivered. */
export const DESTINATIONS = ["webhook", "pipefy", "trello", "email", "whatsapp", "whatsapp_sales"] as const;
export const destination = z.enum(DESTINATIONS);
export type Destination = z.infer<typeof destination>;

/** `?leads=1,2,3`: whose deliveries to show. */
export const deliveriesQuery = z.object({
  leads: z.string().regex(/^\d{1,18}(,\d{1,18})*$/, "must be lead ids separated by commas")
    .transform((v) => [...new Set(v.split(",").map(Number))])
    .refine((ids) => ids.length <= DELIVERIES_MAX_LEADS, `at most ${DELIVERIES_MAX_LEADS} leads`),
});

/** Body of POST /api/admin/deliveries/resend. */
export const resendBody = z.strictObject({ leadId: z.number().int().positive(), destination });

// ---------------------------------------------------------------------------------------------------------
// Answers

/** GET /api/tracking/first-contact: median and p90 in seconds (null: nothing measured). */
const spread = z.object({ count: z.number(), p50: z.number().nullable(), p90: z.number().nullable() });

/**
 * GET /api/tracking/first-contact: over the period's leads whose WhatsApp message Meta accepted, the time to
 * the message delivered and to the lead's reply, and per last-touch channel how many replied.
 */
export const firstContact = z.object({
  configured: z.boolean(),
  messaged: z.number(),
  toDelivered: spread,
  toReply: spread,
  channels: z.array(z.object({
    channel: z.string(),
    messaged: z.number(),
    replied: z.number(),
    /** replied / messaged × 100, one decimal. */
    replyRate: z.number(),
  })),
});
export type FirstContact = z.infer<typeof firstContact>;

/** GET /api/config. */
export const publicConfig = z.object({
  metaPixelId: z.string().nullable(),
  gtmId: z.string().nullable(),
  whatsappConsent: z.boolean().optional(),
});
export type PublicConfig = z.infer<typeof publicConfig>;

/**
 * The codes only the administrator's routes answer (routes/api/refused.ts), beside the ones every endpoint
 * may (core/errors.ts: validation, unauthorized, rate_limited...). Every refusal has one shape,
 * `{ error: code, ...details }`; the dashboard words the codes in Portuguese (ui/admin/messages.ts).
 */
export const ADMIN_ERROR_CODES = [
  "bad_credentials",
  "wrong_current_password",
  "password_same_as_current",
  "password_too_common",
  "password_too_weak",
  "password_blank",
  "password_too_short",
  "password_too_long",
  "nothing_to_resend",
] as const;
export type AdminErrorCode = (typeof ADMIN_ERROR_CODES)[number];

/**
 * Any refusal: the code, and what the code carries (fields of a validation error, seconds to wait...). A
 * sign-in's and a password change's refusals also say `success: false` and, in `message`, what happened in
 * Portuguese (shared/admin_messages.ts), as their successes do.
 */
export const apiError = z.looseObject({
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  retryAfter: z.number().optional(),
  success: z.boolean().optional(),
  message: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiError>;

/** GET /api/admin/check-auth; also the answer of a sign-out. */
export const authStatus = z.object({ isAuthenticated: z.boolean(), email: z.string().nullable() });
export type AuthStatus = z.infer<typeof authStatus>;

/** What a sign-in or a password change says happened: `success`, and `message` in Portuguese. */
const outcomeFields = { success: z.boolean(), message: z.string() };

/** POST /api/admin/login: the outcome and the session it opened. */
export const loginAnswer = z.object({ ...outcomeFields, ...authStatus.shape });
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** POST /api/admin/change-password. */
export const passwordChangeAnswer = z.object(outcomeFields);
export type PasswordChangeAnswer = z.infer<typeof passwordChangeAnswer>;

/** A refused sign-in or password change: the error shape with its outcome. */
export const refusedOutcome = apiError.extend({ success: z.literal(false), message: z.string().min(1) });

/** One day of a daily series (GET /api/leads/analytics, /api/tracking/analytics, /unique-visits). */
export const dailyCount = z.object({ date: z.string(), count: z.number() }) satisfies z.ZodType<DailyCount>;
export const dailySeries = z.array(dailyCount);

/** What every view of a stored lead shows: the form's fields, its plan and UTM origin, when it came. */
const leadFields = {
  id: z.number(),
  name: z.string(),
  email: z.string(),
  whatsapp: z.string(),
  plan: z.string(),
  planLabel: z.string(),
  submittedAt: z.string(),
  utmSource: z.string().nullable(),
  utmCampaign: z.string().nullable(),
  utmMedium: z.string().nullable(),
};

/**
 * A lead's WhatsApp facts (migration 00019): the consent (when, and the version of the box's text shown), the
 * number in E.164 when it is a valid mobile one, and its template message: queued, accepted by Meta or given
 * up (with why), then what Meta's webhook reported and when the lead first wrote back. Never a message's text.
 */
export const leadWhatsapp = z.object({
  consentAt: z.string().nullable(),
  consentVersion: z.string().nullable(),
  e164: z.string().nullable(),
  /** The message in the outbox: pending, delivered (accepted by Meta), failed; null when none was queued. */
  status: z.enum(["pending", "delivered", "failed"]).nullable(),
  /** Why the message was not sent (or Meta's failure), when it was not. */
  error: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  readAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  repliedAt: z.string().nullable(),
});
export type LeadWhatsapp = z.infer<typeof leadWhatsapp>;

/** One lead of GET /api/leads (the list; the total is in the x-total-count header). */
export const lead = z.object({
  ...leadFields,
  // The converting session's creative (utm_content) and keyword (utm_term), migration 00016.
  utmContent: z.string().nullable(),
  utmTerm: z.string().nullable(),
  // The visitor's first session in the attribution window (null on leads stored before migration 00011).
  firstSource: z.string().nullable(),
  firstMedium: z.string().nullable(),
  firstCampaign: z.string().nullable(),
  firstChannel: z.string().nullable(),
  firstLandingPage: z.string().nullable(),
  // The session that converted.
  lastSource: z.string().nullable(),
  lastMedium: z.string().nullable(),
  lastCampaign: z.string().nullable(),
  lastChannel: z.string().nullable(),
  lastLandingPage: z.string().nullable(),
  // The address of the page the form was sent from.
  page: z.string().nullable(),
  // The Brazilian state of the WhatsApp number's DDD (shared/br_states.ts), null for a foreign or unreadable one.
  state: z.string().nullable(),
  // Its WhatsApp message (issue 31): null when WhatsApp is not configured and nothing was recorded.
  whatsappContact: leadWhatsapp.nullable().optional(),
});
export type Lead = z.infer<typeof lead>;
export const leadList = z.array(lead);

/** GET /api/tracking/stats: clicks, conversions and conversions / clicks × 100 (one decimal). */
export const trackingStats = z.object({ clicks: z.number(), conversions: z.number(), rate: z.number() });
export type TrackingStats = z.infer<typeof trackingStats>;

/** The headline figures of one period. */
export const periodSummary = z.object({
  start: z.string(),
  end: z.string(),
  /** An upper bound when `approximate` (over 62 days, or purged days): docs/UNIQUE_VISITORS.md. */
  uniqueVisitors: z.number(),
  approximate: z.boolean(),
  visits: z.number(),
  clicks: z.number(),
  conversions: z.number(),
  leads: z.number(),
  /** conversions / clicks × 100. */
  conversionRate: z.number(),
  /** leads / clicks × 100 (the chart's rate, over the whole period). */
  leadRate: z.number(),
});
export type PeriodSummary = z.infer<typeof periodSummary>;

/**
 * GET /api/tracking/summary: the period and what it is compared with (comparisonRange in shared/dashboard_math.ts):
 * `previous.start`..`previous.end`, its last day only before `previous.until` (local HH:mm:ss) when set.
 */
export const summary = z.object({
  current: periodSummary,
  previous: periodSummary.extend({ until: z.string().nullable() }),
});
export type Summary = z.infer<typeof summary>;

/** GET /api/tracking/rankings/utm-source, /utm-campaign and /pages. */
export const utmSourceRanking = z.array(z.object({ utmSource: z.string(), visits: z.number() }));
export const utmCampaignRanking = z.array(z.object({ utmCampaign: z.string(), visits: z.number() }));
export const pageRanking = z.array(z.object({ page: z.string(), visits: z.number() }));

/** GET /api/tracking/rankings/utm-content and /utm-term: visits, plan clicks, leads and leads / clicks × 100. */
export const utmDetailRanking = z.array(z.object({
  value: z.string(),
  visits: z.number(),
  clicks: z.number(),
  leads: z.number(),
  rate: z.number(),
}));

/** GET /api/tracking/rankings/sources and /entry-pages: each item with its figure in the previous period. */
export const sourceRanking = z.array(
  z.object({ source: z.string(), visits: z.number(), previousVisits: z.number() }),
);
export const entryPageRanking = z.array(
  z.object({ page: z.string(), visits: z.number(), previousVisits: z.number() }),
);

/** GET /api/tracking/conversion-by-utm-source. */
export const sourceConversion = z.object({
  utmSource: z.string().nullable(),
  clicks: z.number(),
  conversions: z.number(),
  rate: z.number(),
});
export type SourceConversion = z.infer<typeof sourceConversion>;
export const conversionBySource = z.array(sourceConversion);

/** One channel's figures in a period. */
export const channelRow = z.object({
  channel: z.string(),
  visits: z.number(),
  clicks: z.number(),
  conversions: z.number(),
  leads: z.number(),
  leadRate: z.number(),
  conversionRate: z.number(),
});
export type ChannelRow = z.infer<typeof channelRow>;

/** GET /api/tracking/channels: per channel, in the period and in the days it is compared with (`comparison`). */
export const channelReport = z.object({
  current: z.array(channelRow),
  previous: z.array(channelRow),
  comparison: z.object({ start: z.string(), end: z.string() }),
});
export type ChannelReport = z.infer<typeof channelReport>;

/** GET /api/tracking/whatsapp: the period's WhatsApp clicks (kind `whatsapp`), apart from the plan clicks. */
export const whatsappReport = z.object({
  total: z.number(),
  previous: z.object({ start: z.string(), end: z.string(), until: z.string().nullable(), total: z.number() }),
  daily: dailySeries,
  byChannel: z.array(z.object({ channel: z.string(), whatsappClicks: z.number() })),
  bySource: z.array(z.object({ utmSource: z.string().nullable(), whatsappClicks: z.number() })),
  pages: z.array(z.object({ page: z.string(), clicks: z.number() })),
});
export type WhatsappReport = z.infer<typeof whatsappReport>;

/** `?date=yyyy-MM-dd`: the day of GET /api/tracking/hourly. */
export const hourlyQuery = z.object({ date: day });

const hourCount = z.number().nullable();
/** GET /api/tracking/hourly: a local day hour by hour (`available` false when its raw rows are purged). */
export const hourlyReport = z.object({
  date: z.string(),
  available: z.boolean(),
  hours: z.array(z.object({
    start: z.string(),
    label: z.string(),
    state: z.enum(["done", "partial", "future"]),
    visits: hourCount,
    clicks: hourCount,
    whatsappClicks: hourCount,
    leads: hourCount,
    conversionRate: hourCount,
  })),
});
export type HourlyReport = z.infer<typeof hourlyReport>;

/** Everything stored about one lead (the LGPD export contains exactly this). */
export const personLead = z.object({
  ...leadFields,
  // The session's creative and keyword (migration 00016).
  utmContent: z.string().nullable(),
  utmTerm: z.string().nullable(),
  page: z.string().nullable(),
  // Derived (docs/AUDIENCE.md): the state of the WhatsApp number's DDD, and the session's device class,
  // browser, operating system, country and state from its latest page view (migrations/00020).
  state: z.string().nullable(),
  device: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  country: z.string().nullable(),
  region: z.string().nullable(),
  // Its WhatsApp consent, normalised number, message statuses and reply time (null: none recorded).
  whatsappContact: leadWhatsapp.nullable().optional(),
});
export type PersonLead = z.infer<typeof personLead>;

/** GET /api/admin/lgpd/leads. */
export const personLeads = z.object({ leads: z.array(personLead) });

/** DELETE /api/admin/lgpd/leads: how much went. */
export const erasure = z.object({ deleted: z.object({ leads: z.number(), metaEvents: z.number() }) });

/**
 * One delivery of a lead to a destination. `status` is what the destinations panel counts (pending,
 * delivered, failed); `state` splits pending into queued (first try not made yet), sending (under way) and
 * retrying (an attempt failed, attempt `nextAttempt` is due at `nextAttemptAt`). Only `failed` is a failure
 * for good: refused by the destination, or given up after the retry window.
 */
export const delivery = z.object({
  leadId: z.number(),
  destination,
  status: z.enum(["pending", "delivered", "failed"]),
  state: z.enum(["queued", "sending", "retrying", "delivered", "failed"]),
  attempts: z.number(),
  nextAttempt: z.number().nullable(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
});
export type Delivery = z.infer<typeof delivery>;

/** GET /api/admin/deliveries?leads=…. */
export const deliveries = z.object({ deliveries: z.array(delivery) });

/** A configured destination's last success and failure (never a URL, token or password). */
export const destinationHealth = z.object({
  destination,
  lastDeliveredAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastError: z.string().nullable(),
  pending: z.number(),
  failed: z.number(),
});
export type DestinationHealth = z.infer<typeof destinationHealth>;

/** GET /api/admin/destinations. */
export const destinations = z.object({ destinations: z.array(destinationHealth) });

/** A background job's latest record (a run, or a summary of the delivery loops' runs). */
export const jobStatus = z.object({
  name: z.string(),
  everyMs: z.number(),
  startedAt: z.string(),
  finishedAt: z.string(),
  runs: z.number(),
  failedRuns: z.number(),
  durationMs: z.number(),
  status: z.enum(["done", "failed"]),
  result: z.record(z.string(), z.unknown()),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastError: z.string().nullable(),
  overdue: z.boolean(),
});
export type JobStatus = z.infer<typeof jobStatus>;

/** GET /api/admin/system: the version, the jobs and the lead destinations failing now. */
export const systemHealth = z.object({
  version: z.string(),
  jobs: z.array(jobStatus),
  failingDestinations: z.array(z.object({ destination, since: z.string() })),
});

/** GET /api/tracking/audience/{device,browser,os,country,region} (docs/AUDIENCE.md). */
export const audienceReport = z.object({
  rows: z.array(z.object({
    key: z.string(),
    label: z.string(),
    visits: z.number(),
    clicks: z.number(),
    leads: z.number(),
    leadRate: z.number(),
    previousVisits: z.number(),
    previousClicks: z.number(),
    previousLeads: z.number(),
    previousLeadRate: z.number(),
  })),
  comparison: z.object({ start: z.string(), end: z.string() }),
});
export type AudienceReport = z.infer<typeof audienceReport>;

/** GET /api/tracking/lead-states: leads per state of their WhatsApp number's DDD. */
export const leadStateReport = z.object({
  rows: z.array(
    z.object({ state: z.string(), name: z.string(), leads: z.number(), previousLeads: z.number() }),
  ),
  comparison: z.object({ start: z.string(), end: z.string() }),
});
export type LeadStateReport = z.infer<typeof leadStateReport>;

/** GET and PUT /api/admin/weekly-report: the weekly e-mail's switch, who gets it, and its latest week. */
export const weeklyReportStatus = z.object({
  enabled: z.boolean(),
  /** SMTP is configured: without it nothing is sent, whatever the switch says. */
  available: z.boolean(),
  recipients: z.array(z.string()),
  timeZone: z.string(),
  last: z.object({
    week: z.string(),
    status: z.enum(["pending", "sent"]),
    attempts: z.number(),
    sentAt: z.string().nullable(),
    nextAttemptAt: z.string(),
    lastError: z.string().nullable(),
    recipients: z.number().nullable(),
  }).nullable(),
});
export type WeeklyReportStatus = z.infer<typeof weeklyReportStatus>;

/** PUT /api/admin/weekly-report's body. */
export const weeklyReportSwitch = z.object({ enabled: z.boolean("must be true or false") }).strict();
