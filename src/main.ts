// Start: config -> db -> migrate -> bootstrap admin -> serve; drain on SIGTERM. Run as the main module
// (`deno run src/main.ts`, the Dockerfile, `deno compile`) it starts from the environment; `start` is exported
// for entries that add routes of their own (bench/server.ts) without the production app knowing about them.
import { geoDbFor } from "./services/geoip.ts";
import type { Hono } from "hono";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { type Db, openDb } from "./db/client.ts";
import { StorageError } from "./db/storage_guard.ts";
import { DataDirBusy } from "./db/data_dir_lock.ts";
import { migrate, MigrationChangedError, SchemaNewerError } from "./db/migrate.ts";
import { makePrivate } from "./db/private_dir.ts";
import { createApp } from "./app.ts";
import { serveGuarded } from "./server/conn_guard.ts";
import { startBackupEndpoint } from "./server/backup_endpoint.ts";
import { loadAssets, readBuildVersion } from "./server/assets.ts";
import { loadLocales } from "./server/locales.ts";
import type { AppEnv } from "./server/env.ts";
import { log, setLogLevel } from "./core/log.ts";
import { bootstrapAdmin } from "./services/auth.ts";
import { startScheduledJobs } from "./services/schedule.ts";
import { PASSWORD_PROBLEM_TEXT, UnacceptablePassword } from "./services/password_rule.ts";
import { closeTracking } from "./services/tracking.ts";
import { VisitorKeys } from "./services/visitor_key.ts";

export interface StartOptions {
  /**
   * Adds routes to the app after the request log, security headers and static files and before the API and
   * page catch-alls: how the bench mounts its ceiling routes without the production app carrying them.
   */
  extend?: (app: Hono<AppEnv>) => void;
}

/** The configuration from the environment; a bad variable ends the process with code 1, each one named. */
export function configFromEnv(): Config {
  try {
    return loadConfig(Deno.env.toObject());
  } catch (error) {
    if (error instanceof ConfigError) {
      log.error("invalid environment configuration: exiting with code 1", { problems: error.problems });
      Deno.exit(1);
    }
    throw error;
  }
}

/** Opens and migrates the database, serves, runs the background jobs, and drains on SIGTERM or SIGINT. */
export async function start(config: Config, options: StartOptions = {}): Promise<void> {
  setLogLevel(config.LOG_LEVEL);
  // Until the server listens, any failure ends the start with code 1 (a supervisor retries). Once serving, no
  // stray rejection or exception may end the process: each leaves one JSON line with its stack and the
  // process keeps serving. The only deliberate exit is the listener failing for good (below).
  let serving = false;
  globalThis.addEventListener("unhandledrejection", (event) => {
    const error = event.reason instanceof Error ? event.reason : new Error(String(event.reason));
    if (!serving) return fatal("start-up failed", error);
    event.preventDefault();
    log.error("unhandled rejection (still serving)", { error: error.message, stack: error.stack });
  });
  globalThis.addEventListener("error", (event) => {
    if (!serving) return fatal("start-up failed", event.error ?? new Error(String(event.message)));
    event.preventDefault();
    log.error("uncaught exception (still serving)", {
      error: String(event.message),
      stack: event.error?.stack,
    });
  });
  // The IP database is read once now, not on the first page view (services/geoip.ts; absent: a warning, no error).
  geoDbFor(config.GEOIP_DB);
  let db: Db;
  const freshDataDir = !config.DATABASE_URL &&
    !await Deno.stat(config.DATA_DIR).then(() => true, () => false);
  try {
    db = await openDb({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      minFreeBytes: config.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
      owner: "server",
    });
  } catch (error) {
    if (error instanceof DataDirBusy) {
      log.error(`${error.message} Nothing was changed.`);
      Deno.exit(1);
    }
    if (error instanceof StorageError) {
      // The one message an operator needs, not a WebAssembly stack: which directory, and what is wrong with it.
      log.error(`${error.message}: exiting with code 1`, {
        hint: `The embedded database needs DATA_DIR to be a writable directory with at least ` +
          `${config.DATA_DIR_MIN_FREE_MB} MB free (DATA_DIR_MIN_FREE_MB). Nothing stored there was changed.`,
      });
      Deno.exit(1);
    }
    throw error;
  }
  if (db.kind === "pglite") await keepDataDirPrivate(config.DATA_DIR, freshDataDir);
  const version = await readBuildVersion();
  log.info("starting", { version, database: db.kind });
  let applied: string[];
  try {
    applied = await migrate(db);
  } catch (error) {
    // A database this build must not touch: one line that says why and what to do, nothing changed.
    if (error instanceof MigrationChangedError || error instanceof SchemaNewerError) {
      log.error(error.message, { version });
      await db.close();
      Deno.exit(1);
    }
    throw error;
  }
  if (applied.length) log.info("migrations applied", { applied });
  try {
    if (await bootstrapAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD)) {
      log.info("administrator created from ADMIN_EMAIL");
    }
  } catch (error) {
    if (!(error instanceof UnacceptablePassword)) throw error;
    // The same rule as the dashboard's password change: the first administrator does not start weak.
    log.error(`ADMIN_PASSWORD refused: ${PASSWORD_PROBLEM_TEXT[error.reason]}: exiting with code 1`, {
      reason: error.reason,
    });
    await db.close();
    Deno.exit(1);
  }
  // This process's cache of the month salts: owned here, for this database only.
  const visitorKeys = new VisitorKeys(db, config.ANALYTICS_TZ);
  const app = await createApp(
    { config, db, assets: await loadAssets(), locales: await loadLocales(), visitorKeys, version },
    { extend: options.extend },
  );

  const onListen = ({ hostname, port }: Deno.NetAddr) => {
    const shown = hostname === "0.0.0.0" ? "localhost" : hostname;
    log.milestone(`listening on http://${shown}:${port}`, {
      database: db.kind === "pglite" ? "embedded" : "postgres",
      ...(db.kind === "pglite" ? { dataDir: config.DATA_DIR } : {}),
    });
  };
  // The signal handlers come before the socket: a SIGTERM right after "listening" (a quick restart) drains
  // and exits 0 like any other, instead of killing the process while the jobs and the backup endpoint start.
  const running: {
    server?: { shutdown(): Promise<void> };
    backupEndpoint?: Awaited<ReturnType<typeof startBackupEndpoint>>;
    jobs?: Awaited<ReturnType<typeof startScheduledJobs>>;
  } = {};
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log.info("shutting down: finishing in-flight requests", { signal });
    // Whatever happens below (a client that never finishes sending its body, a database that stopped
    // answering), the process exits before an orchestrator's usual 10 s grace period ends.
    setTimeout(() => {
      log.error("shutdown took too long: exiting now", { limitMs: EXIT_LIMIT_MS });
      Deno.exit(1);
    }, EXIT_LIMIT_MS);
    // Stops accepting, waits for the requests in flight (each acknowledged event is committed before its 202).
    const drained = await Promise.race([
      (running.server?.shutdown() ?? Promise.resolve()).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), DRAIN_LIMIT_MS)),
    ]);
    if (!drained) {
      log.warn("requests still open after the drain limit: closing anyway", { limitMs: DRAIN_LIMIT_MS });
    }
    await closeTracking(db); // writes any tracking batch still queued before the database closes
    await running.jobs?.stop(); // lets a delivery in progress record its outcome, a purge in progress commit
    await running.backupEndpoint?.close();
    await db.close();
    Deno.exit(0);
  }
  Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
  // The guard owns the public socket: bounded connections, idle and per-request timeouts
  // (server/conn_guard.ts). Behind a trusted proxy that enforces those itself, CONNECTION_GUARD=0 serves plainly.
  const served = config.CONNECTION_GUARD
    ? await serveGuarded({ port: config.PORT, hostname: config.HOST, handler: app.fetch, onListen })
    : Deno.serve({ port: config.PORT, hostname: config.HOST, onListen }, app.fetch);
  running.server = served;
  serving = true;
  if ("stats" in served) log.info("connection guard", { fdBudget: served.stats().fdBudget });
  else log.info("connection guard off (CONNECTION_GUARD=0): serving plainly behind the proxy");
  // `deno task db:backup` asks this process for a consistent copy (server/backup_endpoint.ts).
  running.backupEndpoint = await startBackupEndpoint(db);
  served.finished.catch((error) => {
    fatal("the listener failed (a supervisor restarts the process)", error);
  });

  // Deliveries, roll-ups, retention and backups (services/schedule.ts), each run logged and recorded in job_runs.
  running.jobs = await startScheduledJobs(db, config, visitorKeys);
}

function fatal(what: string, error: Error): never {
  log.error(`${what}: exiting with code 1`, { error: error.message, stack: error.stack });
  Deno.exit(1);
}

/**
 * DATA_DIR 0700, its files 0600. PGlite creates them so (db/pglite.ts); this repairs files from elsewhere (a
 * copy, an older version, an operator's edit): at start, saying what was repaired in an existing directory,
 * and hourly (the 0700 directory already shuts others out).
 */
async function keepDataDirPrivate(dataDir: string, fresh: boolean) {
  const repaired = await makePrivate(dataDir);
  if (fresh) {
    log.info("DATA_DIR created private (directories 0700, files 0600)", { dataDir });
  } else if (repaired.dirs || repaired.files) {
    log.warn("DATA_DIR modes repaired: others could read or change the database files", {
      dataDir,
      ...repaired,
    });
  }
  setInterval(() => {
    makePrivate(dataDir).catch((error) => log.warn("DATA_DIR modes not checked", { error: error.message }));
  }, 3_600_000);
}

/** How long in-flight requests get to finish after SIGTERM; the process is gone well within 10 s. */
const DRAIN_LIMIT_MS = 6_000;
const EXIT_LIMIT_MS = 9_500;

if (import.meta.main) await start(configFromEnv());
