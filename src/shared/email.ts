// The two e-mail rules, each written once. `isLeadEmail` is what the lead form accepts (server and browser),
// and so what the LGPD lookup accepts: every address a lead could leave can be looked up. `plainAddress` is
// stricter: one ordinary address that a mail header or a `mailto:` link may carry as is.

/** Longest e-mail address accepted anywhere (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;

/** The lead form's pattern: non-space text, @, text, a dot, text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * True when the lead form accepts this address, judged as the form stores it (trimmed): at most 254
 * characters, no control character, and the pattern.
 */
export function isLeadEmail(email: string): boolean {
  const address = email.trim();
  return address.length <= MAX_EMAIL_LENGTH && !CONTROL.test(address) && EMAIL_PATTERN.test(address);
}

// One plain address: a dot-atom local part and a host name, ASCII only. Nothing a mail client or library
// reads as a second recipient or an extra parameter: no `,` or `;` (a list), no `?`, `&`, `#`, `%` or `/`
// (`victim@example.com?cc=attacker@evil.example`), no quotes, angle brackets or spaces.
const PLAIN_ADDRESS = /^[A-Za-z0-9.!$'*+=^_`{|}~-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$/;

/**
 * The address, trimmed, when it is one plain address safe for a `Reply-To` header or a `mailto:` link; null
 * otherwise (the caller then shows it as text and sets no header).
 */
export function plainAddress(email: string): string | null {
  const address = email.trim();
  return address.length <= MAX_EMAIL_LENGTH && PLAIN_ADDRESS.test(address) ? address : null;
}
