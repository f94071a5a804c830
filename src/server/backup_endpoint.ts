// The running server's backup channel, for `deno task db:backup` (db/backup.ts). Only the process that has the
// embedded database open can copy it consistently, so the command asks the server for the copy.
//
// Why this shape:
// - Its own listener on 127.0.0.1, on a port the system picks, not a route of the public app: nothing on the
//   public socket changes, and it cannot be reached from another machine whatever HOST is (0.0.0.0 in
//   Docker), nor through a reverse proxy, which only forwards to the public port.
// - A random 256-bit token, required as `Authorization: Bearer`, compared in constant time: other users of
//   the same machine can connect to a loopback port, but the token and the port are written only into the
//   DATA_DIR lock file (data_dir_lock.ts), 0600 inside the 0700 DATA_DIR, so only the server's own user (or
//   root, who can read the database anyway) can use it. A new token at every start; the lock file is
//   emptied when the server stops and left out of backups.
// - One request at a time, one answer: the gzip'd dump, which PGlite takes between two statements.
// (A Unix socket in DATA_DIR would need no token, but PGlite's dump walks every file of that folder and
// cannot read a socket, and socket paths are limited to about 100 characters.)
import type { Db } from "../db/client.ts";
import { log } from "../core/log.ts";

export interface BackupEndpoint {
  port: number;
  close(): Promise<void>;
}

function sameToken(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

/** Serves POST /backup on 127.0.0.1 and records port and token in the DATA_DIR lock file. */
export async function startBackupEndpoint(db: Db): Promise<BackupEndpoint | null> {
  const lock = db.dataDirLock;
  const dump = db.dumpDataDir;
  if (!lock || !dump) return null;
  const token = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/[+/=]/g, (c) => c === "+" ? "-" : c === "/" ? "_" : "");
  let busy = false;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
    handler: async (req) => {
      const url = new URL(req.url);
      if (url.pathname !== "/backup" || req.method !== "POST") {
        return new Response("not found", { status: 404 });
      }
      const given = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
      if (!sameToken(given, token)) return new Response("wrong token", { status: 403 });
      if (busy) return new Response("a backup is already being taken", { status: 409 });
      busy = true;
      const started = performance.now();
      try {
        const bytes = await dump();
        log.info("backup taken for db:backup", {
          bytes: bytes.length,
          ms: Math.round(performance.now() - started),
        });
        return new Response(bytes, { headers: { "content-type": "application/gzip" } });
      } catch (error) {
        log.error("backup for db:backup failed", {
          error: error instanceof Error ? error.message : String(error),
        });
        return new Response(`the dump failed: ${error instanceof Error ? error.message : error}`, {
          status: 500,
        });
      } finally {
        busy = false;
      }
    },
  });
  const port = server.addr.port;
  await lock.publish({ backupPort: port, backupToken: token });
  return { port, close: () => server.shutdown() };
}
