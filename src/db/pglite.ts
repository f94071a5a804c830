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
import { runDenoChild } from "./deno_child.ts";
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import { join } from "node:path";
import { LOCK_FILE } from "./data_dir_lock.ts";

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
  const fs = options.dataDir ? await privateNodeFs(options.dataDir) : undefined;
  return await PGlite.create({ ...options, fs, startParams: startParams(PGlite.defaultStartParams) });
}

/**
 * PGlite's file system for a directory on disk, never giving the group or others any access. PostgreSQL's
 * files went through Emscripten's own umask (022, not the process's) and were created, and then chmod'ed,
 * 0644 by Emscripten's NODEFS, which sets modes explicitly: the files PostgreSQL writes anew at every start
 * (the relation cache's `pg_internal.init`) came back 0644 and "DATA_DIR modes repaired" was logged at
 * almost every restart. Both places NODEFS sets a mode (creating a file or directory, chmod) now take the
 * group and other bits off; nothing else changes.
 */
async function privateNodeFs(dataDir: string) {
  const { NodeFS } = await import("@electric-sql/pglite/nodefs");
  type Attr = { mode?: number };
  type NodeFs = {
    node_ops: { mknod(parent: unknown, name: string, mode: number, dev: unknown): unknown };
    doSetAttr(arg: unknown, node: unknown, attr: Attr, ...rest: unknown[]): unknown;
  };
  class PrivateNodeFS extends NodeFS {
    override async init(...args: Parameters<InstanceType<typeof NodeFS>["init"]>) {
      const result = await super.init(...args);
      const preRun = result.emscriptenOpts.preRun ?? [];
      result.emscriptenOpts.preRun = [...preRun, (mod: { NODEFS: NodeFs }) => {
        const nodefs = mod.NODEFS;
        const { mknod } = nodefs.node_ops;
        nodefs.node_ops.mknod = (parent, name, mode, dev) => mknod(parent, name, mode & ~0o077, dev);
        const doSetAttr = nodefs.doSetAttr.bind(nodefs);
        nodefs.doSetAttr = (arg, node, attr, ...rest) =>
          doSetAttr(
            arg,
            node,
            attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~0o077 },
            ...rest,
          );
      }];
      return result;
    }
  }
  return new PrivateNodeFS(dataDir);
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
  const out = await runDenoChild(
    new URL("./initdb_child.ts", import.meta.url),
    // --allow-sys: the storage guard's free-space check (statfs)
    ["--allow-read", `--allow-write=${dataDir}`, "--allow-env", "--allow-sys"],
    [dataDir],
    INITDB_LIMIT_MS,
  );
  if (!out) return false;
  if (!out.success) {
    const printed = new TextDecoder().decode(out.stderr).trim() ||
      new TextDecoder().decode(out.stdout).trim();
    throw new Error(
      out.signal === "SIGKILL"
        ? `initdb did not finish within ${INITDB_LIMIT_MS / 1000} s`
        : `initdb failed (exit ${out.code}): ${printed.slice(-800)}`,
    );
  }
  return true;
}

/**
 * A consistent copy of the database `pg` has open, as a gzip'd tarball of its data directory, without the
 * lock file (data_dir_lock.ts). PGlite reads every file in one synchronous pass while no statement runs (it
 * holds its query lock), so the copy is what a crash at that instant would leave: PostgreSQL's recovery,
 * replaying the write-ahead log, brings it to its last committed transaction when it is opened. It never
 * half-includes a statement; a transaction still open at that instant is rolled back by the recovery.
 */
export async function dumpPglite(pg: PGlite): Promise<Uint8Array<ArrayBuffer>> {
  const tar = new Uint8Array(await (await pg.dumpDataDir("none")).arrayBuffer());
  return await gzipYielding(tarEntries(tar, (name) => name === LOCK_FILE));
}

/**
 * Gzips `parts` in slices of 1 MB, letting the event loop serve requests between slices: in one piece, the
 * 40 MB tarball of a small site's database kept the server from answering for over a second.
 */
async function gzipYielding(parts: Uint8Array<ArrayBuffer>[]): Promise<Uint8Array<ArrayBuffer>> {
  const gzip = new CompressionStream("gzip");
  const writer = gzip.writable.getWriter();
  const result = new Response(gzip.readable).arrayBuffer();
  const SLICE = 1 << 20;
  for (const part of parts) {
    for (let at = 0; at < part.length; at += SLICE) {
      await writer.write(part.subarray(at, at + SLICE));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  await writer.close();
  return new Uint8Array(await result);
}

/**
 * A backup's tar archive, unpacked from its gzip and checked entry by entry (header checksums, sizes within
 * the file), ready for PGlite's `loadDataDir`. PGlite can unzip by itself but leaves the decompressor's
 * error unhandled, which ends the whole process on a corrupted file; here it is an ordinary exception.
 */
export async function unpackBackup(gzip: Uint8Array<ArrayBuffer>): Promise<Blob> {
  let tar: Uint8Array<ArrayBuffer>;
  try {
    const stream = new Blob([gzip]).stream().pipeThrough(new DecompressionStream("gzip"));
    tar = new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (error) {
    throw new Error(`not a complete gzip file (${error instanceof Error ? error.message : error})`);
  }
  let at = 0;
  let entries = 0;
  for (; at + 512 <= tar.length; entries++) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const stored = parseInt(new TextDecoder().decode(header.subarray(148, 156)).replace(/\0.*$/s, ""), 8);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
    if (stored !== sum) throw new Error(`not a tar archive, or corrupted at entry ${entries + 1}`);
    const size = parseInt(
      new TextDecoder().decode(header.subarray(124, 136)).replace(/\0.*$/s, "") || "0",
      8,
    );
    at += 512 + Math.ceil(size / 512) * 512;
    if (at > tar.length) throw new Error(`the tar archive is cut short (entry ${entries + 1})`);
  }
  if (!entries || at + 512 > tar.length) throw new Error("the tar archive is empty or cut short");
  return new Blob([tar], { type: "application/x-tar" });
}

/** The tar archive's entries, header and data, but those `drop` picks by path (`PG_VERSION`, `base/1/1259`…), then
 * the end-of-archive blocks; views into `tar`, nothing copied. */
function tarEntries(
  tar: Uint8Array<ArrayBuffer>,
  drop: (path: string) => boolean,
): Uint8Array<ArrayBuffer>[] {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/\0.*$/s, "").trim();
  const kept: Uint8Array<ArrayBuffer>[] = [];
  let at = 0;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header[0] === 0 && header.every((byte) => byte === 0)) break; // the end-of-archive blocks
    const size = parseInt(text(header.subarray(124, 136)) || "0", 8);
    const end = at + 512 + Math.ceil(size / 512) * 512;
    // PGlite names them from the data directory's root: `/PG_VERSION`.
    if (!drop(text(header.subarray(0, 100)).replace(/^\/+/, ""))) kept.push(tar.subarray(at, end));
    at = end;
  }
  kept.push(new Uint8Array(1024));
  return kept;
}

/** The tar archive without the entries `drop` picks, by path (`PG_VERSION`, `base/1/1259`…). */
export function withoutEntries(
  tar: Uint8Array<ArrayBuffer>,
  drop: (path: string) => boolean,
): Uint8Array<ArrayBuffer> {
  const kept = tarEntries(tar, drop);
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of kept) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
