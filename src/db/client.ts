import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

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
}

/** Opens the configured database: PostgreSQL when a URL is given, else PGlite. */
export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : await openPglite(options.dataDir);
}

async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) await Deno.mkdir(dataDir, { recursive: true }); // PGlite's own mkdir is not recursive
  // Loaded only here: a PostgreSQL deployment never pays PGlite's ~12 MB of memory.
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = await PGlite.create(dataDir ? { dataDir } : {});
  const wrap = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      return (await q.query<T>(sql, params)).rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}

function openPostgres(url: string, options: DbOptions): Db {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connect_timeout: 5,
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
      // postgres.js sends `unsafe` text unprepared unless asked: a describe round trip, then parse and plan.
      const result = await q.unsafe(text, params as never[], { prepare: options.prepare ?? false });
      // A plain array, like PGlite returns (postgres.js adds count/columns properties to its result).
      return Array.from(result as T[]);
    },
    async exec(text: string) {
      await q.unsafe(text); // no parameters: simple protocol, several statements allowed
    },
  });
  return {
    kind: "postgres",
    ...wrap(sql as unknown as Unsafe),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      sql.begin((tx) => fn(wrap(tx as unknown as Unsafe))) as Promise<T>,
    close: () => sql.end({ timeout: 5 }),
  };
}
