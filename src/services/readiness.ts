import type { Db } from "../db/client.ts";
import { appliedMigrations, readMigrations } from "../db/migrate.ts";
import { jobStatuses } from "./system_health.ts";

/** A job's latest run as /readyz shows it: no error text (the probe is public). */
export interface JobReadiness {
  status: "done" | "failed";
  finishedAt: string;
  overdue: boolean;
}

export type Readiness =
  | { ready: true; jobs: Record<string, JobReadiness> }
  | {
    ready: false;
    reason: "database_unreachable" | "migrations_pending" | "schema_newer" | "storage_unavailable";
    pending?: number;
  };

/** The names of the migrations this build ships (`migrations/*.sql`), sorted. */
export async function shippedMigrations(): Promise<string[]> {
  return (await readMigrations()).map((m) => m.name);
}

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
 * recorded as applied (an instance of a newer build must not take traffic on an older schema) and no other
 * (nor an older build on a newer one), and it can write (DATA_DIR of the embedded database). A failed or
 * overdue job does not make an instance unready (another instance would not do better); it is reported.
 */
export async function checkReadiness(
  db: Db,
  expectedMigrations: string[],
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  const started = Date.now();
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
  if (pending) return { ready: false, reason: "migrations_pending", pending };
  // Another instance of a newer build migrated the database under this one (a rolling upgrade): this build
  // would write rows without the new columns, so it takes no more traffic.
  const known = new Set(expectedMigrations);
  if (applied.some((name) => !known.has(name))) return { ready: false, reason: "schema_newer" };
  let jobs: Record<string, JobReadiness>;
  try {
    const runs = await withTimeout(
      jobStatuses(db, new Date()),
      Math.max(1, timeoutMs - (Date.now() - started)),
    );
    jobs = Object.fromEntries(
      runs.map((r) => [r.name, { status: r.status, finishedAt: r.finishedAt, overdue: r.overdue }]),
    );
  } catch {
    return { ready: false, reason: "database_unreachable" };
  }
  return { ready: true, jobs };
}
