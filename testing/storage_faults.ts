// Shared by the DATA_DIR fault tests (src/main_storage_full_test.ts, src/main_storage_readonly_test.ts): a tmpfs
// mounted for the test (root only), the server's settings, and reads of what the server stored.
import assert from "node:assert/strict";
import { statfsSync } from "node:fs";
import { openDb } from "../src/db/client.ts";
import { LOAD_ORIGIN } from "./load.ts";
import { copyDataDir } from "./db_template.ts";

const ADMIN = { email: "owner@example.com", password: "correct horse battery" };
const MIN_FREE_MB = 64;

export const sh = async (cmd: string, ...args: string[]) => {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
};

/** A tmpfs of `mb` MB mounted on a new directory, or null where this process may not mount. */
async function mountTmpfs(mb: number): Promise<{ dir: string; unmount(): Promise<void> } | null> {
  const dir = await Deno.makeTempDir({ prefix: "storage_fault_" });
  try {
    await sh("mount", "-t", "tmpfs", "-o", `size=${mb}m`, "tmpfs", dir);
  } catch {
    await Deno.remove(dir);
    return null;
  }
  return {
    dir,
    async unmount() {
      await sh("umount", dir).catch(() => sh("umount", "-l", dir));
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A 160 MB tmpfs holding a migrated DATA_DIR (testing/db_template.ts: no initdb, nothing to migrate). */
export async function dataDirOnTmpfs(): Promise<
  { disk: { dir: string; unmount(): Promise<void> }; dataDir: string }
> {
  const disk = (await mountTmpfs(160))!;
  const dataDir = `${disk.dir}/data`;
  await copyDataDir(dataDir);
  return { disk, dataDir };
}

/** Whether this process may mount a tmpfs; says loudly, once per file, that the tests are skipped if not. */
export async function canMount(): Promise<boolean> {
  const probe = await mountTmpfs(1);
  await probe?.unmount();
  if (!probe) {
    console.warn(
      `\n${"!".repeat(78)}\n!! SKIPPING the DATA_DIR full/read-only tests: mounting a tmpfs needs root.\n${
        "!".repeat(78)
      }\n`,
    );
  }
  return Boolean(probe);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const freeMb = (dir: string) => {
  const { bavail, bsize } = statfsSync(dir);
  return (bavail * bsize) / 1024 / 1024;
};

export function serverEnv(dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATA_DIR_MIN_FREE_MB: String(MIN_FREE_MB),
    PUBLIC_ORIGIN: LOAD_ORIGIN,
    TRUST_PROXY: "1",
    LOG_LEVEL: "warn",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  };
}

export async function status(url: string, init?: RequestInit): Promise<number> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
  await res.body?.cancel();
  return res.status;
}

export async function readyReason(origin: string): Promise<string> {
  const res = await fetch(`${origin}/readyz`);
  const body = await res.json();
  return res.ok ? "ready" : body.reason;
}

export async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/admin/login`, {
    method: "POST",
    body: JSON.stringify(ADMIN),
    headers: { "content-type": "application/json", origin: LOAD_ORIGIN },
  });
  await res.body?.cancel();
  assert.equal(res.status, 200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/** Leads and visits as stored in DATA_DIR, read with the server stopped (PGlite has one owner). */
export async function stored(dataDir: string) {
  const db = await openDb({ dataDir });
  try {
    const leads = await db.query<{ key: string; n: number; name: string; email: string }>(
      `select idempotency_key as key, count(*)::int as n, min(name) as name, min(email) as email
         from leads group by idempotency_key`,
    );
    const [{ visits }] = await db.query<{ visits: number }>("select count(*)::int as visits from visits");
    return { leads, visits };
  } finally {
    await db.close();
  }
}

export const lead = (key: string) => ({
  name: `Storage ${key}`,
  email: `${key}@example.com`,
  whatsapp: "+55 11 91234-5678",
  plan: "pro",
  idempotencyKey: key,
});
