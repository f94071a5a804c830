// One process per embedded data folder. PGlite is PostgreSQL running inside this process with no shared
// memory or lock of its own between processes: two processes opening one DATA_DIR each believe they own it,
// hand out the same ids and overwrite each other's pages. So the server and every command that opens
// DATA_DIR first take an exclusive lock on `DATA_DIR/owner.lock` (flock(2), through Deno.FsFile.tryLock):
// the operating system releases it when the process ends, however it ends (kill -9 included), so a lock
// is never stale and nothing has to be cleaned up. The file itself is kept (0600, inside the 0700 folder);
// the holder writes who it is into it (PID, start time, what it is), so a refused process can name it, and
// the server adds the loopback port and the random token through which `db:backup` asks it for a
// consistent dump (backup.ts). The file is left out of every backup.
import { join } from "node:path";

export const LOCK_FILE = "owner.lock";

/** Who holds DATA_DIR, as written in the lock file. */
export interface Holder {
  pid: number;
  /** ISO time the holder took the lock. */
  startedAt: string;
  /** "server", or the command: "db:backup", "admin:reset-password"... */
  role: string;
  /** The server only: its loopback backup endpoint (backup.ts). */
  backupPort?: number;
  backupToken?: string;
}

/** DATA_DIR is held by another process; `holder` is what it wrote (null when it could not be read). */
export class DataDirBusy extends Error {
  constructor(readonly dataDir: string, readonly holder: Holder | null) {
    super(
      `DATA_DIR ${dataDir} is in use by ${describeHolder(holder)}. Only one process may open the embedded ` +
        "database at a time: two would hand out the same ids and overwrite each other's changes. " +
        (holder?.role === "server"
          ? "Stop the server first, then run this again (`deno task db:backup` alone works while it runs)."
          : "Wait for it to finish, or stop it, then run this again."),
    );
  }
}

function describeHolder(holder: Holder | null): string {
  if (!holder) return "another process (it did not say which)";
  const what = holder.role === "server" ? "the server" : `\`deno task ${holder.role}\``;
  return `${what} (PID ${holder.pid}, started ${holder.startedAt})`;
}

export interface DataDirLock {
  readonly dataDir: string;
  readonly holder: Holder;
  /** Adds facts to the lock file (the server's backup port and token). */
  publish(extra: Partial<Holder>): Promise<void>;
  /** Releases the lock (the file stays). Also happens when the process ends. */
  release(): void;
}

/** What the lock file says now, or null (missing, empty, or being written). */
export async function readHolder(dataDir: string): Promise<Holder | null> {
  try {
    const holder = JSON.parse(await Deno.readTextFile(join(dataDir, LOCK_FILE)));
    return typeof holder?.pid === "number" && typeof holder?.role === "string" ? holder : null;
  } catch {
    return null;
  }
}

/**
 * Takes DATA_DIR for this process as `role`, creating the folder (0700) when missing; throws DataDirBusy,
 * naming the holder, when another process has it. Never waits for it.
 */
export async function lockDataDir(dataDir: string, role: string): Promise<DataDirLock> {
  await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  if (!await file.tryLock(true)) {
    file.close();
    // The holder writes right after locking: give a holder that has just started a moment to say who it is.
    let holder = await readHolder(dataDir);
    for (let i = 0; !holder && i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      holder = await readHolder(dataDir);
    }
    throw new DataDirBusy(dataDir, holder);
  }
  let holder: Holder = { pid: Deno.pid, startedAt: new Date().toISOString(), role };
  const write = async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(holder) + "\n");
    await file.truncate(0);
    await file.seek(0, Deno.SeekMode.Start);
    for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
  };
  await Deno.chmod(path, 0o600); // a file left by an earlier version or copied in
  await write();
  let released = false;
  return {
    dataDir,
    get holder() {
      return holder;
    },
    async publish(extra) {
      holder = { ...holder, ...extra };
      await write();
    },
    release() {
      if (released) return;
      released = true;
      try {
        file.truncateSync(0); // the token is worthless once the server is gone; leave nothing behind
      } finally {
        file.close(); // closing the only descriptor releases the flock
      }
    },
  };
}
