import { resolve } from "node:path";
import { z } from "zod";
import { type Cidr, parseCidr } from "./core/ip.ts";
import { plainAddress } from "./shared/email.ts";

/** Parses "0"/"1"/"true"/"false" style flags. */
const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const optional = z.string().trim().min(1).optional();
/** A WhatsApp message template's name as Meta allows it. */
const templateName = /^[a-z0-9_]{1,512}$/;

/** CSP directives a site owner may extend for tag-manager tags (Google Ads and the like). */
export const CSP_EXTRA_DIRECTIVES = ["script", "img", "connect", "frame"] as const;
export type CspExtraSources = Record<typeof CSP_EXTRA_DIRECTIVES[number], string[]>;

// An https origin, with a `*.` wildcard allowed on the first label: `https://www.googleadservices.com`,
// `https://*.doubleclick.net`. No paths, quotes, keywords or schemes other than https: nothing that widens
// the policy beyond named hosts.
const CSP_SOURCE = /^https:\/\/(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?$/;

/**
 * `CSP_EXTRA_SOURCES`: sources separated by spaces or commas. A bare origin is allowed for scripts, images,
 * connections and frames; `script=`, `img=`, `connect=` or `frame=` before it limits it to that directive.
 */
const cspExtraSources = z.string().transform((value, ctx): CspExtraSources => {
  const out: CspExtraSources = { script: [], img: [], connect: [], frame: [] };
  for (const item of value.split(/[\s,]+/).filter(Boolean)) {
    const eq = item.indexOf("=");
    const directive = eq === -1 ? null : item.slice(0, eq);
    const source = (eq === -1 ? item : item.slice(eq + 1)).toLowerCase().replace(/\/$/, "");
    if (directive !== null && !(CSP_EXTRA_DIRECTIVES as readonly string[]).includes(directive)) {
      ctx.addIssue({
        code: "custom",
        message: `"${item}": the directive must be script, img, connect or frame`,
      });
      continue;
    }
    if (!CSP_SOURCE.test(source)) {
      ctx.addIssue({
        code: "custom",
        message: `"${item}": each source must be an https origin such as https://www.googleadservices.com ` +
          "(a leading *. is allowed; no path)",
      });
      continue;
    }
    for (const d of directive ? [directive as keyof CspExtraSources] : CSP_EXTRA_DIRECTIVES) {
      if (!out[d].includes(source)) out[d].push(source);
    }
  }
  return out;
});

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres://").optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  // Free space the embedded database keeps on DATA_DIR's disk: below it, writes answer 503 until freed.
  DATA_DIR_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_000_000).default(64),
  // Scheduled backups of the embedded database (services/backups.ts): off unless BACKUP_DIR is set.
  BACKUP_DIR: optional,
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  BACKUP_EVERY_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(24),
  ANALYTICS_TZ: z.string().refine(isTimeZone, "must be an IANA time zone such as America/Sao_Paulo")
    .default("America/Sao_Paulo"),
  TRUST_PROXY: flag.default(false),
  // With TRUST_PROXY=1, the peers whose X-Forwarded-For is read: addresses or CIDRs, comma-separated.
  TRUSTED_PROXIES: z.string().default("127.0.0.0/8,::1").transform((text, ctx) => {
    const items = text.split(",").map((t) => t.trim()).filter(Boolean);
    const cidrs = items.map(parseCidr);
    const bad = items.filter((_, i) => !cidrs[i]);
    if (bad.length) {
      ctx.addIssue({ code: "custom", message: `not an address or CIDR: ${bad.join(", ")}` });
      return z.NEVER;
    }
    return cidrs as Cidr[];
  }),
  // 0: serve plainly with Deno.serve, without the connection guard (src/server/conn_guard.ts); only behind a
  // trusted proxy (TRUST_PROXY=1) that enforces header, body and idle timeouts itself.
  CONNECTION_GUARD: flag.default(true),
  COUNTRY_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name").default("cf-ipcountry"),
  // The IP database a visit's country (and state, when it has them) is looked up in (services/geoip.ts);
  // unset: the bundled country database; "off": none (every country unknown).
  GEOIP_DB: optional,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  // Meta pixel and Conversions API: nothing is sent unless both the pixel id and the token are set.
  META_PIXEL_ID: z.string().regex(/^\d{5,20}$/, "must be the numeric pixel id").optional(),
  META_ACCESS_TOKEN: optional,
  META_GRAPH_URL: z.url().default("https://graph.facebook.com/v26.0"),
  META_TEST_EVENT_CODE: optional,
  GTM_ID: z.string().regex(/^(GTM|G)-[A-Z0-9]+$/, "must look like GTM-XXXX or G-XXXX").optional(),
  CONSENT_MODE: z.enum(["opt-in", "none"]).default("opt-in"),
  CSP_EXTRA_SOURCES: cspExtraSources.optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).max(128).optional(),
  RETENTION_DAYS: z.coerce.number().int().min(1).default(400),
  // A lead's first touch is the visitor's first session within this many days before it. At most 60: an
  // address is found by its monthly visitor keys, and a month's salt is destroyed 40 days after it ends.
  ATTRIBUTION_DAYS: z.coerce.number().int().min(1).max(60).default(30),
  // Lead delivery to the sales team (services/lead_delivery.ts): each destination is on when its variables
  // are set; a destination with some of them set and others missing stops the start (see DESTINATION_VARS).
  LEAD_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  LEAD_WEBHOOK_SECRET: z.string().regex(
    /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/,
    "must be whsec_ followed by at least 24 random bytes in base64 (Standard Webhooks)",
  ).optional(),
  PIPEFY_TOKEN: optional,
  PIPEFY_PIPE_ID: z.string().regex(/^\d{1,20}$/, "must be the numeric pipe id").optional(),
  PIPEFY_FIELDS: z.string().transform(parsePipefyFields).optional(),
  PIPEFY_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.pipefy.com/graphql"),
  TRELLO_KEY: optional,
  TRELLO_TOKEN: optional,
  TRELLO_LIST_ID: z.string().regex(/^[0-9a-f]{24}$/, "must be the list's 24-character id").optional(),
  TRELLO_DUE_HOURS: z.coerce.number().int().min(1).max(24 * 60).optional(),
  TRELLO_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.trello.com"),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^/\s]+/, "must look like smtp://user:pass@host:587 or smtps://…")
    .optional(),
  LEAD_NOTIFY_TO: z.string().transform(parseAddressList).optional(),
  LEAD_NOTIFY_FROM: z.string().trim().regex(
    /^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
    "must be an address, or a name and <address>",
  ).optional(),
  // More recipients of the weekly report (services/weekly_report.ts), besides the administrator's address.
  REPORT_TO: z.string().transform(parseStrictAddressList).optional(),
  // WhatsApp Business Cloud API (services/whatsapp.ts): a template message to every lead who agreed, and a
  // notification to each sales number. All of WHATSAPP_VARS or none; the sales pair is all or nothing too.
  WHATSAPP_TOKEN: optional,
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d{5,20}$/, "must be the numeric phone number id").optional(),
  WHATSAPP_TEMPLATE: z.string().regex(templateName, "must be the approved template's name (a-z, 0-9, _)")
    .optional(),
  WHATSAPP_TEMPLATE_FALLBACK_LANG: z.enum(["pt_BR", "en_US", "es"]).default("pt_BR"),
  WHATSAPP_APP_SECRET: z.string().trim().min(16, "must be the Meta app's secret").optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().trim().min(16, "must be at least 16 characters (random)").optional(),
  WHATSAPP_SALES_TO: z.string().transform(parsePhoneList).optional(),
  WHATSAPP_SALES_TEMPLATE: z.string().regex(
    templateName,
    "must be the approved template's name (a-z, 0-9, _)",
  )
    .optional(),
  WHATSAPP_API_URL: z.url({ protocol: /^https?$/ }).default("https://graph.facebook.com/v23.0"),
}).superRefine((v, ctx) => {
  if (!v.CONNECTION_GUARD && !v.TRUST_PROXY) {
    ctx.addIssue({
      code: "custom",
      path: ["CONNECTION_GUARD"],
      message: "0 needs TRUST_PROXY=1: without the guard, only a proxy in front may face the internet",
    });
  }
  if (v.BACKUP_DIR && v.DATABASE_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["BACKUP_DIR"],
      message: "scheduled backups are for the embedded database; with DATABASE_URL use pg_dump (README)",
    });
  } else if (v.BACKUP_DIR && isInside(v.BACKUP_DIR, v.DATA_DIR)) {
    ctx.addIssue({
      code: "custom",
      path: ["BACKUP_DIR"],
      message: `${v.BACKUP_DIR} is inside DATA_DIR (${v.DATA_DIR}): each backup would contain the earlier ` +
        "ones, and a lost disk would take both; choose a folder outside it",
    });
  }
  for (const [name, vars] of Object.entries(WHATSAPP_VARS)) {
    const set = vars.filter((key) => v[key] !== undefined);
    if (set.length === 0 || set.length === vars.length) continue;
    for (const key of vars.filter((k) => v[k] === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `required for ${name} (${set.join(", ")} is set)`,
      });
    }
  }
  if (v.REPORT_TO && !v.SMTP_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["REPORT_TO"],
      message: "needs SMTP_URL (and LEAD_NOTIFY_FROM): the weekly report is sent over SMTP",
    });
  }
  if (v.WHATSAPP_SALES_TO && !v.WHATSAPP_TOKEN) {
    ctx.addIssue({
      code: "custom",
      path: ["WHATSAPP_SALES_TO"],
      message: "needs the WhatsApp variables (WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, …)",
    });
  }
  // A destination is all or nothing: half a configuration would silently drop the sales team's leads.
  for (const [name, vars] of Object.entries(DESTINATION_VARS)) {
    const set = vars.filter((key) => v[key] !== undefined);
    if (set.length === 0 || set.length === vars.length) continue;
    for (const key of vars.filter((k) => v[k] === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `required for ${name} (${set.join(", ")} is set)`,
      });
    }
  }
});

/** The variables each lead destination needs, all together; optional extras (URLs, due date) are not listed. */
export const DESTINATION_VARS = {
  webhook: ["LEAD_WEBHOOK_URL", "LEAD_WEBHOOK_SECRET"],
  pipefy: ["PIPEFY_TOKEN", "PIPEFY_PIPE_ID", "PIPEFY_FIELDS"],
  trello: ["TRELLO_KEY", "TRELLO_TOKEN", "TRELLO_LIST_ID"],
  email: ["SMTP_URL", "LEAD_NOTIFY_TO", "LEAD_NOTIFY_FROM"],
} as const;

/** WhatsApp's variables, each group all together (the API URL and fallback language have defaults). */
export const WHATSAPP_VARS = {
  whatsapp: [
    "WHATSAPP_TOKEN",
    "WHATSAPP_PHONE_NUMBER_ID",
    "WHATSAPP_TEMPLATE",
    "WHATSAPP_APP_SECRET",
    "WHATSAPP_VERIFY_TOKEN",
  ],
  "whatsapp sales notification": ["WHATSAPP_SALES_TO", "WHATSAPP_SALES_TEMPLATE"],
} as const;

/** Comma-separated numbers in international form (+ and country code), at least one, as E.164 (`+5511…`). */
function parsePhoneList(raw: string, ctx: z.RefinementCtx): string[] {
  const list = raw.split(",").map((a) => a.trim()).filter(Boolean);
  const numbers = list.map((a) => a.replace(/[\s().-]/g, ""));
  const bad = list.filter((_, i) => !/^\+[1-9]\d{7,14}$/.test(numbers[i]));
  if (!list.length || bad.length) {
    ctx.addIssue({
      code: "custom",
      message: `must be numbers with + and country code, separated by commas${
        bad.length ? ` (not: ${bad.join(", ")})` : ""
      }`,
    });
  }
  return numbers;
}

/** The lead facts a Pipefy start-form field can receive. */
export const PIPEFY_FIELD_KEYS = ["name", "email", "whatsapp", "plan", "origin"] as const;
export type PipefyFieldKey = typeof PIPEFY_FIELD_KEYS[number];

/** `name:field_id,email:field_id,…` -> map; `name` is required, the others optional. */
function parsePipefyFields(raw: string, ctx: z.RefinementCtx): Partial<Record<PipefyFieldKey, string>> {
  const map: Partial<Record<PipefyFieldKey, string>> = {};
  for (const pair of raw.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [key, id] = pair.split(":").map((p) => p.trim());
    if (!(PIPEFY_FIELD_KEYS as readonly string[]).includes(key) || !id || !/^[\w-]{1,100}$/.test(id)) {
      ctx.addIssue({
        code: "custom",
        message: `"${pair}": write key:field_id with a key among ${PIPEFY_FIELD_KEYS.join(", ")}`,
      });
      return z.NEVER;
    }
    map[key as PipefyFieldKey] = id;
  }
  if (!map.name) ctx.addIssue({ code: "custom", message: "must map name (e.g. name:nome_do_lead)" });
  return map;
}

/** Comma-separated e-mail addresses, at least one. */
function parseAddressList(raw: string, ctx: z.RefinementCtx): string[] {
  const list = raw.split(",").map((a) => a.trim()).filter(Boolean);
  const bad = list.filter((a) => !/^[^\s@<>,]+@[^\s@<>,]+$/.test(a));
  if (!list.length || bad.length) {
    ctx.addIssue({ code: "custom", message: "must be one or more e-mail addresses separated by commas" });
  }
  return list;
}

/**
 * Comma-separated addresses, at least one, each one plain address (shared/email.ts plainAddress: no name, no
 * list, no `?cc=`), as the mail headers carry them.
 */
function parseStrictAddressList(raw: string, ctx: z.RefinementCtx): string[] {
  const list = raw.split(",").map((a) => a.trim()).filter(Boolean);
  const bad = list.filter((a) => plainAddress(a) === null);
  if (!list.length || bad.length) {
    ctx.addIssue({
      code: "custom",
      message: `must be one or more plain e-mail addresses separated by commas${
        bad.length ? ` (not: ${bad.join(", ")})` : ""
      }`,
    });
  }
  return list;
}

/** True when `inner` is `outer` or lies inside it (both resolved against the working directory). */
function isInside(inner: string, outer: string): boolean {
  const a = resolve(inner);
  const b = resolve(outer);
  return a === b || a.startsWith(b.endsWith("/") ? b : `${b}/`);
}

export type Config = Omit<z.output<typeof schema>, "PUBLIC_ORIGIN"> & { PUBLIC_ORIGIN: string };

/** The environment was refused: `problems` names each bad variable ("PORT: ..."). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses the environment once. Empty strings count as unset, so `FOO=` in an env file means "default".
 * Throws a ConfigError naming every bad variable.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const data = parsed.data;
  const origin = (data.PUBLIC_ORIGIN ?? `http://localhost:${data.PORT}`).replace(/\/+$/, "");
  return { ...data, PUBLIC_ORIGIN: new URL(origin).origin };
}
