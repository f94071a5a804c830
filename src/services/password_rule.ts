// One rule for every new administrator password, wherever it is set: the dashboard's password change,
// ADMIN_PASSWORD when the first administrator is created at start, and the admin CLI. In order: 8 to 128
// characters, not only spaces, not the current password again (ignoring case and surrounding spaces), not on
// the list of common passwords (common_passwords.txt, ~18,000), and not easy to guess by the zxcvbn estimate
// (score 2 or more: over a million guesses, given the words, names, dates, keyboard walks and l33t of its
// English and Brazilian dictionaries, and the administrator's e-mail). The estimate is what lets 8 characters
// stay the minimum: `Xk9$mQ2p` passes, `flamengo2024` and `Senha123` do not.
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../shared/admin_schemas.ts";

/** Why a new password is refused (the API answers `password_<code>`). */
export type PasswordProblem =
  | "too_short"
  | "too_long"
  | "blank"
  | "same_as_current"
  | "too_common"
  | "too_weak";

/** The reasons in English, for the terminal and the log (the dashboard words the codes in Portuguese). */
export const PASSWORD_PROBLEM_TEXT: Record<PasswordProblem, string> = {
  too_short: `the password must have at least ${MIN_PASSWORD_LENGTH} characters`,
  too_long: `the password must have at most ${MAX_PASSWORD_LENGTH} characters`,
  blank: "the password must not be only spaces",
  same_as_current: "the new password must differ from the current one (not only in case or spaces)",
  too_common: "the password is one of the most common passwords",
  too_weak: "the password is too easy to guess (a common word, name, date or pattern): add unrelated words",
};

/** The lowest zxcvbn score accepted: 2 = more than 10^6 guesses. */
export const MIN_STRENGTH_SCORE = 2;

/** How two passwords are compared and the common list is searched: trimmed, ignoring case. */
function key(password: string): string {
  return password.trim().toLowerCase();
}

let common: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  common ??= Deno.readTextFile(new URL("./common_passwords.txt", import.meta.url)).then((text) =>
    new Set(text.split("\n").filter((l) => l && !l.startsWith("#")).map(key))
  );
  return common;
}

/** True when `password` is on the list of common passwords (trimmed, ignoring case). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(key(password));
}

let estimator: Promise<ZxcvbnFactory> | undefined;

// Loaded on first use: the dictionaries cost a few megabytes that a server which never sets a password
// need not hold.
function strengthEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-pt-br"),
  ]).then(([core, common, ptBr]) =>
    new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...ptBr.dictionary },
      graphs: common.adjacencyGraphs,
    })
  );
  return estimator;
}

/** zxcvbn's score (0 to 4) of `password`, counting `userInputs` (e-mail, brand) as known words. */
export async function strengthScore(password: string, userInputs: string[] = []): Promise<number> {
  return (await strengthEstimator()).check(password, userInputs).score;
}

export interface PasswordContext {
  /** The password being replaced, when there is one. */
  current?: string;
  /** The administrator's e-mail: its name is the first thing a guesser tries. */
  email?: string;
}

/** Why `password` may not become the administrator's password, or null when it may. */
export async function passwordProblem(
  password: string,
  context: PasswordContext = {},
): Promise<PasswordProblem | null> {
  if (password.length > MAX_PASSWORD_LENGTH) return "too_long";
  if (password.length < MIN_PASSWORD_LENGTH) return "too_short";
  if (!password.trim()) return "blank";
  if (context.current !== undefined && key(password) === key(context.current)) return "same_as_current";
  if (await isCommonPassword(password)) return "too_common";
  const email = context.email?.trim().toLowerCase();
  const userInputs = ["zapflow", ...(email ? [email, ...email.split("@")[0].split(/[^\p{L}\p{N}]+/u)] : [])]
    .filter((w) => w.length >= 3);
  if (await strengthScore(password, userInputs) < MIN_STRENGTH_SCORE) return "too_weak";
  return null;
}

/** A refused new password, with the reason. */
export class UnacceptablePassword extends Error {
  constructor(readonly reason: PasswordProblem) {
    super(`new password refused: ${PASSWORD_PROBLEM_TEXT[reason]}`);
  }
}

/** Throws UnacceptablePassword when `password` breaks the rule. */
export async function assertAcceptablePassword(
  password: string,
  context: PasswordContext = {},
): Promise<void> {
  const problem = await passwordProblem(password, context);
  if (problem) throw new UnacceptablePassword(problem);
}
