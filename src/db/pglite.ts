// The embedded database (PGlite): the PostgreSQL settings it runs with, and a new DATA_DIR initialised in a
// short-lived child process. Measured in docs/PERFORMANCE.md ("Memory of the embedded database").
//
// PGlite is PostgreSQL compiled to WebAssembly, run inside this process, and WebAssembly memory never
// shrinks: whatever PostgreSQL touches once stays resident for the life of the process. Two things made it
// heavy:
// - PostgreSQL's shared memory (its buffer cache above all) is allocated inside that memory and zeroed at
//   start, so all of it is resident from the first second.
// - `initdb` (a new DATA_DIR) runs three WebAssembly instances and copies a whole one's memory: about 600 MB
//   at its peak, of which about 330 MB stayed with the process after the database was closed. A worker
//   gives most of it back when it ends, but not all (the process stayed 75 MB above a fresh one); a child
//   process gives it all back when it exits.
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import { basename, join } from "node:path";

/**
 * PostgreSQL settings for one small site, passed on PGlite's command line (`-c`) at every start, so a DATA_DIR
 * created by an earlier version gets them too and its postgresql.conf stays PostgreSQL's own. Each one only
 * sizes memory: none changes what is durable (synchronous_commit stays on, see docs/PERFORMANCE.md).
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  // The buffer cache: 128 MB by default, all of it resident from the start (about 120 MB of the process).
  // 16 MB holds 2,048 pages: the indexes and the recent pages this app touches (inserts go to the end of
  // their tables; the dashboard reads roll-ups); a page outside it is read again from the operating
  // system's file cache. bench/ab.sh on PGlite measured no loss of ingestion throughput against 128 MB.
  shared_buffers: "16MB",
};

/** PGlite's own start parameters with PGLITE_SETTINGS added. */
function startParams(defaults: readonly string[]): string[] {
  return [
    ...defaults,
    ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ];
}

/**
 * Opens PGlite with PGLITE_SETTINGS (in memory without `dataDir`). PGlite's module is loaded only here: a
 * PostgreSQL deployment never pays its ~12 MB.
 */
export async function createPglite(options: PGliteOptions = {}): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  return await PGlite.create({ ...options, startParams: startParams(PGlite.defaultStartParams) });
}

/** True when `dir` holds a PostgreSQL data directory (PG_VERSION is its first file); else PGlite runs initdb. */
export async function hasDatabase(dir: string): Promise<boolean> {
  return await Deno.stat(join(dir, "PG_VERSION")).then((s) => s.isFile, () => false);
}

/** How long initdb may take in the child: about 3 s on an idle machine, 35 s measured under heavy load. */
const INITDB_LIMIT_MS = 180_000;

/**
 * Creates the database in an empty `dataDir` in a child Deno process, so the ~330 MB initdb leaves behind go
 * back to the system when it exits. Returns false, having done nothing, when a child cannot be run (a
 * compiled executable, or no permission to run Deno's own executable, `--allow-run=<Deno.execPath()>`):
 * PGlite then runs initdb in this process, and the memory comes back at the next start.
 * Throws when the child fails, with what it printed.
 */
export async function initdbInChild(dataDir: string): Promise<boolean> {
  const script = new URL("./initdb_child.ts", import.meta.url);
  const config = new URL("../../deno.json", import.meta.url);
  const deno = Deno.execPath();
  // A compiled executable is not `deno`: run with these arguments it would start another server.
  if (!/^deno(\.exe)?$/.test(basename(deno)) || script.protocol !== "file:") return false;
  if (!await Deno.stat(config).then(() => true, () => false)) return false;
  const allowed = await Deno.permissions.query({ name: "run", command: deno }).catch(() => null);
  if (allowed?.state !== "granted") return false;
  const child = new Deno.Command(deno, {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${config.pathname}`,
      "--allow-read",
      `--allow-write=${dataDir}`,
      "--allow-env",
      "--allow-sys", // the storage guard's free-space check (statfs)
      script.pathname,
      dataDir,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), INITDB_LIMIT_MS);
  try {
    const out = await child.output();
    if (!out.success) {
      const printed = new TextDecoder().decode(out.stderr).trim() ||
        new TextDecoder().decode(out.stdout).trim();
      throw new Error(
        out.signal === "SIGKILL"
          ? `initdb did not finish within ${INITDB_LIMIT_MS / 1000} s`
          : `initdb failed (exit ${out.code}): ${printed.slice(-800)}`,
      );
    }
  } finally {
    clearTimeout(timer);
  }
  return true;
}
