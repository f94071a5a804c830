// Why this exists: PGlite writes DATA_DIR through WebAssembly. When one of its writes fails, PostgreSQL mostly
// raises an ordinary error (53100 disk_full: the statement fails, nothing stored changes). But when the write
// that fails is the write-ahead log's (a new 16 MB segment, a flush), it fails inside a critical section,
// PostgreSQL panics, and PGlite then spins on the JavaScript thread for good: the process answers nothing
// more, not even SIGTERM (measured on a 48 MB tmpfs, docs/RELIABILITY.md). What was committed survives that
// (the log replays at the next start), but the site is down. So writes are refused *before* the disk is
// full or while the directory cannot be written, with a clear reason, and resume by themselves afterwards.
import { statfsSync } from "node:fs";

/** DATA_DIR cannot hold the embedded database's writes; the message says why and what to do. */
export class StorageError extends Error {}

export interface StorageGuardOptions {
  /** Free bytes kept in reserve: writes are refused below it. */
  minFreeBytes: number;
  /** How long one check's answer is reused, in ms; default 1000. */
  recheckMs?: number;
  /** Clock in ms; default `performance.now`. */
  now?: () => number;
}

export interface StorageGuard {
  /** Why writes are refused right now, or null when DATA_DIR is writable with the reserve free. */
  problem(): string | null;
}

const MB = 1024 * 1024;
const PROBE = new Uint8Array([0x6f, 0x6b]);

/** The errno name and its plain meaning, e.g. "read-only file system (EROFS)". */
export function describeFsError(error: unknown): string {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const plain: Record<string, string> = {
    EROFS: "read-only file system",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    ENOSPC: "no space left on device",
    EDQUOT: "disk quota exceeded",
    ENOENT: "no such directory",
    ENOTDIR: "not a directory",
    EIO: "input/output error",
  };
  if (plain[code]) return `${plain[code]} (${code})`;
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied (EACCES)";
  if (error instanceof Deno.errors.NotFound) return "no such directory (ENOENT)";
  return error instanceof Error ? error.message : String(error);
}

/** One look at DATA_DIR: a probe file written and removed, then the free space. */
function inspect(dir: string, minFreeBytes: number): string | null {
  const probe = `${dir}/.write-probe`;
  try {
    Deno.writeFileSync(probe, PROBE);
    Deno.removeSync(probe);
  } catch (error) {
    return `DATA_DIR ${dir} is not writable: ${describeFsError(error)}`;
  }
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  if (free < minFreeBytes) {
    return `DATA_DIR ${dir} has ${(free / MB).toFixed(1)} MB free, below the ${
      Math.round(minFreeBytes / MB)
    } MB the embedded database keeps in reserve (DATA_DIR_MIN_FREE_MB)`;
  }
  return null;
}

/**
 * Watches DATA_DIR for the embedded database: a write probe and the free space, looked at again at most once
 * per `recheckMs` (about 0.1 ms of synchronous file system calls), only when a write asks.
 */
export function createStorageGuard(dir: string, options: StorageGuardOptions): StorageGuard {
  const recheckMs = options.recheckMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  let checkedAt = -Infinity;
  let last: string | null = null;
  return {
    problem() {
      if (now() - checkedAt >= recheckMs) {
        last = inspect(dir, options.minFreeBytes);
        checkedAt = now();
      }
      return last;
    },
  };
}

/**
 * True for a statement that only reads: reads still run while writes are refused, so the dashboard stays
 * readable. Anything else, or a read that also writes (a CTE with insert/update/delete), counts as a write.
 */
export function isReadOnly(sql: string): boolean {
  return /^\s*(select|with|show)\b/i.test(sql) && !/\b(insert|update|delete)\b/i.test(sql);
}
