import { hash, verify } from "@node-rs/argon2";

import { MAX_PASSWORD_LENGTH } from "../shared/schemas.ts";

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../shared/schemas.ts";

// argon2id (algorithm 2), OWASP's m=19456 KiB, t=2, p=1.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** argon2id hash of a password (PHC string). */
export async function hashPassword(password: string): Promise<string> {
  if (password.length > MAX_PASSWORD_LENGTH) throw new RangeError("password too long");
  return await hash(password, OPTIONS);
}

/** True when `password` matches the PHC hash; false for over-long input or a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same work as a real verification, for an unknown e-mail: the answer then takes about as long
 * as a wrong password, so timing does not reveal which e-mails exist.
 */
export async function verifyDummy(password: string): Promise<false> {
  dummy ??= hashPassword("not-a-real-password-" + crypto.randomUUID());
  await verifyPassword(await dummy, password);
  return false;
}
