// Zod building blocks for the public POST bodies: trimmed text with a length cap that refuses NUL and
// other control characters (they have no business in a name or a URL and break logs and CSV exports).
import { z } from "zod";
import { CLICK_IDS, type ClickId } from "../../shared/click_ids.ts";

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

/** The spec's e-mail pattern: non-space text, @, text, a dot, text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

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
