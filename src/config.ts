import { z } from "zod";
import { type Cidr, parseCidr } from "./server/ip.ts";

/** Parses "0"/"1"/"true"/"false" style flags. */
const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const optional = z.string().trim().min(1).optional();

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
  COUNTRY_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name").default("cf-ipcountry"),
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
  // `deno task bench` only: adds the two same-process ceiling routes under /__bench/. Never set in production.
  BENCH_CEILINGS: flag.default(false),
});

export type Config = Omit<z.output<typeof schema>, "PUBLIC_ORIGIN"> & { PUBLIC_ORIGIN: string };

export class ConfigError extends Error {}

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
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const data = parsed.data;
  const origin = (data.PUBLIC_ORIGIN ?? `http://localhost:${data.PORT}`).replace(/\/+$/, "");
  return { ...data, PUBLIC_ORIGIN: new URL(origin).origin };
}
