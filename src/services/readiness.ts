import type { Db } from "../db/client.ts";
import { appliedMigrations } from "../db/migrate.ts";

export type Readiness =
  | { ready: true }
  | {
    ready: false;
    reason: "database_unreachable" | "migrations_pending" | "storage_unavailable";
    pending?: number;
  };

/** How long a readiness probe waits for the database before calling it unreachable. */
export const READINESS_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * Ready when the database answers within `timeoutMs` and every migration shipped with this build is
 * recorded as applied (an instance of a newer build must not take traffic on an older schema), and it can
 * write (DATA_DIR of the embedded database).
 */
export async function checkReadiness(
  db: Db,
  expectedMigrations: string[],
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  let applied: string[];
  try {
    applied = await withTimeout(appliedMigrations(db), timeoutMs);
  } catch {
    return { ready: false, reason: "database_unreachable" };
  }
  // The embedded database's disk is full or read-only: it cannot take leads until an operator acts.
  if (db.writeProblem()) return { ready: false, reason: "storage_unavailable" };
  const done = new Set(applied);
  const pending = expectedMigrations.filter((name) => !done.has(name)).length;
  return pending ? { ready: false, reason: "migrations_pending", pending } : { ready: true };
}
