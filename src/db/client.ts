import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { type DataDirLock, lockDataDir } from "./data_dir_lock.ts";
import { createPglite, dumpPglite, hasDatabase, initdbInChild } from "./pglite.ts";
import { createStorageGuard, describeFsError, isReadOnly, StorageError } from "./storage_guard.ts";

/** How one statement is sent. */
export interface QueryOptions {
  /**
   * PostgreSQL: keep the statement prepared on each pooled connection, so later runs skip the describe round
   * trip and the parse and plan. For hot statements whose best plan does not depend on the parameter values;
   * others are sent unprepared and planned for their values each time. PGlite ignores it.
   */
  prepare?: boolean;
}

/** Anything that can run one parameterised statement: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The one database handle the app uses; same raw SQL on PGlite and PostgreSQL. */
export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Why writes are refused right now (the embedded database's DATA_DIR full or unwritable), else null. */
  writeProblem(): string | null;
  /** PGlite in a DATA_DIR: this process's lock on it (data_dir_lock.ts), released by close(). */
  readonly dataDirLock?: DataDirLock;
  /**
   * PGlite only: a consistent copy of the whole database as a gzip'd tarball, taken between two statements
   * (backup.ts).
   */
  dumpDataDir?(): Promise<Uint8Array<ArrayBuffer>>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** PostgreSQL URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Directory PGlite persists to; absent means in memory (tests). */
  dataDir?: string;
  /** Postgres schema to use for every connection (tests isolate themselves this way). */
  schema?: string;
  /** Pool size for PostgreSQL. */
  max?: number;
  /** PGlite in `dataDir`: free space kept in reserve, writes refused below it; default 64 MB. */
  minFreeBytes?: number;
  /**
   * PGlite: create a new `dataDir` in this process rather than in a child. The child itself does, and takes
   * no lock: its parent holds DATA_DIR's for it.
   */
  initdbHere?: boolean;
  /** PGlite in `dataDir`: what this process is, named to anyone refused DATA_DIR ("server", "db:migrate"...). */
  owner?: string;
  /**
   * PGlite in memory: start from this data directory (a tar archive, as `dumpDataDir` makes and
   * `unpackBackup` unpacks) instead of a new one. Tests load a migrated one rather than migrating each time.
   */
  template?: Blob;
}

/** The database cannot be reached (refused, timed out, connection lost, shutting down): answer 503, retry later. */
export class DatabaseUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

// postgres.js and socket error codes, and PostgreSQL's connection-class SQLSTATEs, that mean the connection is
// gone: the socket is closed or will be (the server ends the session after these).
const CONNECTION_LOST = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "ECONNRESET",
  "EPIPE",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "08003", // connection_does_not_exist
  "08006", // connection_failure
]);
// ...and those that mean no connection can be made right now.
const CANNOT_CONNECT = new Set([
  "ECONNREFUSED",
  "CONNECT_TIMEOUT",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P03", // cannot_connect_now (starting up or shutting down)
  "53300", // too_many_connections
  "08001", // sqlclient_unable_to_establish_sqlconnection
  "08004", // sqlserver_rejected_establishment_of_sqlconnection
  "53100", // disk_full: nothing was written, try again once space is freed
  "58030", // io_error
]);
const codeOf = (error: unknown) => String((error as { code?: unknown } | null)?.code ?? "");
const connectionLost = (error: unknown) => CONNECTION_LOST.has(codeOf(error));

/** True for an error that says the database is out of reach rather than that the statement was wrong. */
export function isUnavailable(error: unknown): boolean {
  return error instanceof DatabaseUnavailable || connectionLost(error) || CANNOT_CONNECT.has(codeOf(error));
}

const unavailableOr = (error: unknown) => isUnavailable(error) ? new DatabaseUnavailable(error) : error;

/** Opens the configured database: PostgreSQL when a URL is given, else PGlite. */
export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : await openPglite(options);
}

/**
 * Files this process creates from now on are private (0600, directories 0700), whatever the umask it was
 * started with: PostgreSQL creates its files asking for 0666 and writes some anew at every start (the
 * relation cache's pg_internal.init), which came back 0644 each time. Needs `--allow-sys=umask`; without
 * it the periodic repair (private_dir.ts) still applies.
 */
function privateUmask(): void {
  try {
    Deno.umask(0o077);
  } catch {
    // not permitted: makePrivate repairs the modes instead
  }
}

async function openPglite(options: DbOptions): Promise<Db> {
  const { dataDir, minFreeBytes = 64 * 1024 * 1024, initdbHere = false } = options;
  const guard = dataDir ? createStorageGuard(dataDir, { minFreeBytes }) : undefined;
  let lock: DataDirLock | undefined;
  if (dataDir) {
    privateUmask();
    try {
      // PGlite's own mkdir is not recursive; private from the start (private_dir.ts).
      await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new StorageError(`DATA_DIR ${dataDir} cannot be created: ${describeFsError(error)}`);
    }
    // Starting writes too (recovery, a checkpoint): on a full or read-only disk PGlite fails obscurely.
    const problem = guard!.problem();
    if (problem) throw new StorageError(problem);
    // One process per DATA_DIR (data_dir_lock.ts); DataDirBusy names the holder.
    if (!initdbHere) lock = await lockDataDir(dataDir, options.owner ?? "another command");
  }
  let pg: PGlite;
  try {
    // A new DATA_DIR is created and migrated by a child process, whose memory goes back to the system.
    if (dataDir && !initdbHere && !await hasDatabase(dataDir)) await initdbInChild(dataDir);
    pg = await createPglite(
      dataDir ? { dataDir } : options.template ? { loadDataDir: options.template } : {},
    );
  } catch (error) {
    lock?.release();
    throw new StorageError(
      `the embedded database in DATA_DIR ${dataDir ?? "(memory)"} could not be opened: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  // Writes wait while DATA_DIR is full or unwritable (storage_guard.ts says why); reads go on. A statement
  // that fails while the storage is in trouble is put down to it (503), whatever PostgreSQL called it.
  const refuse = (sql: string) => {
    const problem = guard && !isReadOnly(sql) ? guard.problem() : null;
    if (problem) throw new DatabaseUnavailable(new StorageError(problem));
  };
  const failed = (error: unknown) => {
    const problem = guard?.problem();
    return problem ? new DatabaseUnavailable(new StorageError(problem)) : unavailableOr(error);
  };
  const wrap = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      refuse(sql);
      try {
        return (await q.query<T>(sql, params)).rows;
      } catch (error) {
        throw failed(error);
      }
    },
    async exec(sql: string) {
      refuse(sql);
      try {
        await q.exec(sql);
      } catch (error) {
        throw failed(error);
      }
    },
  });
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    writeProblem: () => guard?.problem() ?? null,
    dataDirLock: lock,
    dumpDataDir: () => dumpPglite(pg),
    close: async () => {
      try {
        await pg.close();
      } finally {
        lock?.release();
      }
    },
  };
}

function openPostgres(url: string, options: DbOptions): Db {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connect_timeout: 5,
    // A query that finds no open connection waits for a new one, and postgres.js spaces reconnection attempts
    // by a backoff that grows to 20 s: while the database is down every request would hang that long. A flat
    // 20 ms makes each waiting query try at once and fail fast (503) until the database is back.
    backoff: () => 0.02,
    idle_timeout: 60,
    // int8 (counts, ids) as JS numbers; our values stay far below 2^53.
    types: {
      int8: { to: 20, from: [20], serialize: (v: number) => String(v), parse: (v: string) => Number(v) },
    },
    // JIT compilation costs 100-400 ms per statement and pays off only for long analytical scans, which
    // this app avoids (the dashboard reads roll-ups); the planner's guess for a runtime bound (the roll-up
    // watermark) is large enough to trigger it, so it is off for our sessions.
    connection: { jit: "off", ...(options.schema ? { search_path: options.schema } : {}) },
  });
  type Unsafe = { unsafe: (q: string, p?: unknown[], o?: { prepare?: boolean }) => Promise<unknown> };
  const wrap = (q: Unsafe): Queryable => ({
    async query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}) {
      try {
        // postgres.js sends `unsafe` text unprepared unless asked: a describe round trip, then parse and plan.
        const result = await q.unsafe(text, params as never[], { prepare: options.prepare ?? false });
        // A plain array, like PGlite returns (postgres.js adds count/columns properties to its result).
        return Array.from(result as T[]);
      } catch (error) {
        throw unavailableOr(error);
      }
    },
    async exec(text: string) {
      try {
        await q.unsafe(text); // no parameters: simple protocol, several statements allowed
      } catch (error) {
        throw unavailableOr(error);
      }
    },
  });
  return {
    kind: "postgres",
    ...wrap(sql as unknown as Unsafe),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => {
      // When the connection dies inside a transaction, postgres.js answers the failed body by sending ROLLBACK
      // on that dead connection, and its deferred write then throws on a null socket outside any promise,
      // which ends the process. So a body that failed because the connection is gone never settles (nothing
      // is sent after it), no further statement of it is sent, and the transaction is abandoned at once with
      // DatabaseUnavailable; postgres.js returns the connection to its pool when the socket closes.
      let lost = false;
      let abandon!: (error: unknown) => void;
      const abandoned = new Promise<never>((_, reject) => abandon = reject);
      const body = sql.begin((tx) => {
        const q = wrap(tx as unknown as Unsafe);
        const guarded: Queryable = {
          query: (text, params, options) =>
            lost
              ? Promise.reject(new DatabaseUnavailable("connection lost"))
              : q.query(text, params, options),
          exec: (text) => lost ? Promise.reject(new DatabaseUnavailable("connection lost")) : q.exec(text),
        };
        return fn(guarded).catch((error) => {
          const cause = error instanceof DatabaseUnavailable ? error.cause : error;
          if (!connectionLost(cause) && !lost) throw error;
          lost = true;
          abandon(error);
          return new Promise<never>(() => {});
        });
      }) as Promise<T>;
      return Promise.race([body, abandoned]).catch((error) => {
        lost = true;
        throw unavailableOr(error);
      });
    },
    // The server manages its own disk; a full one answers 53100 (disk_full), mapped to 503 above.
    writeProblem: () => null,
    close: () => sql.end({ timeout: 5 }),
  };
}
