// Fault: the embedded database's DATA_DIR fills up or turns read-only under a lead and tracking load. The real
// server runs as a child process with DATA_DIR on a small tmpfs mounted for the test (root only: the test
// skips loudly elsewhere). Disk full is another file taking the space; read-only is a remount, which binds
// root too (file modes do not). The server must answer 503 at once (never hang, never 500), keep serving
// pages and reads, say why in its log and on /readyz, resume by itself, and lose or corrupt nothing.
import assert from "node:assert/strict";
import { statfsSync } from "node:fs";
import { openDb } from "./db/client.ts";
import { countAnswers, drainOutbox, LOAD_ORIGIN, send, startLoad } from "../testing/load.ts";
import { freePort, startServer } from "../testing/server.ts";
import { copyDataDir } from "../testing/db_template.ts";

const ADMIN = { email: "owner@example.com", password: "correct horse battery" };
const MIN_FREE_MB = 64;

const sh = async (cmd: string, ...args: string[]) => {
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

const probe = await mountTmpfs(1);
await probe?.unmount();
if (!probe) {
  console.warn(
    `\n${"!".repeat(78)}\n!! SKIPPING the DATA_DIR full/read-only tests: mounting a tmpfs needs root.\n${
      "!".repeat(78)
    }\n`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const freeMb = (dir: string) => {
  const { bavail, bsize } = statfsSync(dir);
  return (bavail * bsize) / 1024 / 1024;
};

function serverEnv(dataDir: string): Record<string, string> {
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

async function status(url: string, init?: RequestInit): Promise<number> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
  await res.body?.cancel();
  return res.status;
}

async function readyReason(origin: string): Promise<string> {
  const res = await fetch(`${origin}/readyz`);
  const body = await res.json();
  return res.ok ? "ready" : body.reason;
}

async function signIn(origin: string): Promise<string> {
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
async function stored(dataDir: string) {
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

const lead = (key: string) => ({
  name: `Storage ${key}`,
  email: `${key}@example.com`,
  whatsapp: "+55 11 91234-5678",
  plan: "pro",
  idempotencyKey: key,
});

Deno.test({
  name: "faults: PGlite's DATA_DIR fills up under load — writes 503 at once, pages and reads go on, " +
    "writes resume when space is freed, every lead stored once, nothing corrupted",
  ignore: !probe,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const disk = (await mountTmpfs(160))!;
    const dataDir = `${disk.dir}/data`;
    await copyDataDir(dataDir); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
    const filler = `${disk.dir}/filler`;
    let server = await startServer({ env: serverEnv(dataDir) });
    try {
      const cookie = await signIn(server.url);
      const load = startLoad(server.url, { visitors: 4, browsers: 4, leadEveryMs: 50 });
      await sleep(2_000);

      // Another program takes the disk down to 20 MB free, below the 64 MB reserve.
      await sh("fallocate", "-l", `${Math.floor(freeMb(disk.dir) - 20)}M`, filler);
      const fullAt = Date.now();
      await sleep(1_500); // the guard looks again at most once a second
      const duringFrom = Date.now();
      const leadWhileFull = await send(server.url, "/api/leads", lead("while-full"), "lead", "while-full");
      const reasonWhileFull = await readyReason(server.url);
      const pageWhileFull = await status(`${server.url}/pt-br`);
      const leadsReadWhileFull = await status(`${server.url}/api/leads?page=1`, { headers: { cookie } });
      await sleep(3_000);
      const duringUntil = Date.now();

      await Deno.remove(filler);
      const freedAt = Date.now();
      let readyAt = 0;
      while (!readyAt && Date.now() - freedAt < 10_000) {
        if (await readyReason(server.url) === "ready") readyAt = Date.now();
        else await sleep(20);
      }
      await sleep(2_000);
      await load.stop();
      await drainOutbox(server.url, load);

      const during = load.answers.filter((a) => a.at >= duringFrom && a.at + a.ms <= duringUntil);
      const acked = load.answers.filter((a) => a.kind === "visit" && a.status === 202).length;
      const slowest = Math.max(...during.map((a) => a.ms));
      const counts = countAnswers(load.answers);
      const output = server.output();
      assert.equal(await server.stop(), 0, output.slice(-3000));
      const after = await stored(dataDir);
      console.log(
        `DATA_DIR full: ${load.answers.length} requests, answers ${JSON.stringify(counts)}; while full ` +
          `(${((duringUntil - fullAt) / 1000).toFixed(1)} s): ${during.length} answers, all ${
            [...new Set(during.map((a) => a.status))].join("/")
          }, slowest ${slowest} ms; /readyz "${reasonWhileFull}", page ${pageWhileFull}, leads list ` +
          `${leadsReadWhileFull}; ready ${readyAt - freedAt} ms after the space was freed; leads created ` +
          `${load.created.size}, stored ${after.leads.length}, stored twice ${
            after.leads.filter((l) => l.n > 1).length
          }; visits acknowledged ${acked}, stored ${after.visits}`,
      );

      assert.ok(during.length > 20, `too few requests while the disk was full: ${during.length}`);
      assert.deepEqual(
        [...new Set(during.map((a) => a.status))],
        [503],
        JSON.stringify(countAnswers(during)),
      );
      assert.ok(slowest < 1_000, `an answer took ${slowest} ms while the disk was full`);
      assert.equal(leadWhileFull.status, 503);
      assert.equal(reasonWhileFull, "storage_unavailable");
      assert.equal(pageWhileFull, 200, "pages are served while the disk is full");
      assert.equal(leadsReadWhileFull, 200, "the dashboard reads while the disk is full");
      assert.ok(readyAt > 0 && readyAt - freedAt < 3_000, "writes did not resume within 3 s of freeing");
      assert.ok(!load.answers.some((a) => a.status >= 500 && a.status !== 503), JSON.stringify(counts));
      assert.match(output, /below the 64 MB the embedded database keeps in reserve/);
      assert.doesNotMatch(output, /unhandled/);

      // Every lead the browsers made is stored exactly once with what was sent; none was stored while full.
      assert.equal(load.outbox.size, 0);
      const byKey = new Map(after.leads.map((l) => [l.key, l]));
      assert.equal(byKey.has("while-full"), false);
      for (const [key, sent] of load.created) {
        assert.equal(byKey.get(key)?.n, 1, `lead ${key}`);
        assert.equal(byKey.get(key)?.email, sent.email);
      }
      assert.equal(after.leads.length, load.created.size);
      assert.ok(after.visits >= acked, `visits ${after.visits}, acknowledged ${acked}`);

      // The database opens again as it was and takes writes.
      server = await startServer({ env: serverEnv(dataDir) });
      assert.equal(await readyReason(server.url), "ready");
      assert.equal((await send(server.url, "/api/leads", lead("after"), "lead", "after")).status, 201);
    } finally {
      await server.stop();
      await disk.unmount();
    }
  },
});

Deno.test({
  name: "faults: PGlite's DATA_DIR unwritable — while running, 503s then writes resume, nothing lost; " +
    "read-only at start, no start and a message naming it",
  ignore: !probe,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const disk = (await mountTmpfs(160))!;
    const dataDir = `${disk.dir}/data`;
    await copyDataDir(dataDir); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
    // Immutable binds root too. (A read-only remount is refused while the database holds files open.)
    const immutable = (on: boolean) => sh("chattr", on ? "+i" : "-i", dataDir);
    const remount = (mode: "ro" | "rw") => sh("mount", "-o", `remount,${mode}`, disk.dir);
    let server = await startServer({ env: serverEnv(dataDir) });
    try {
      assert.equal((await send(server.url, "/api/leads", lead("first"), "lead", "first")).status, 201);

      await immutable(true);
      await sleep(1_100); // the guard looks again at most once a second
      const t0 = Date.now();
      const refused = await send(server.url, "/api/leads", lead("later"), "lead", "later");
      const visit = await send(server.url, "/api/tracking/visit", { source: "/pt-br" }, "visit");
      const reason = await readyReason(server.url);
      const answeredIn = Date.now() - t0;
      await immutable(false);
      await sleep(1_100);
      const resumed = await send(server.url, "/api/leads", lead("later"), "lead", "later");
      assert.deepEqual(
        [refused.status, visit.status, reason, resumed.status],
        [503, 503, "storage_unavailable", 201],
      );
      assert.ok(answeredIn < 1_000, `answers took ${answeredIn} ms`);
      const output = server.output();
      assert.equal(await server.stop(), 0, output.slice(-3000));
      assert.match(output, /is not writable: operation not permitted \(EPERM\)/);

      // A read-only DATA_DIR at start: exit 1 at once with a message that says which and why.
      await remount("ro");
      const started = Date.now();
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL("./main.ts", import.meta.url).pathname],
        env: { ...serverEnv(dataDir), PORT: String(freePort()), NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const message = new TextDecoder().decode(run.stderr).trim();
      console.log(`read-only DATA_DIR at start: exit ${run.code} in ${Date.now() - started} ms: ${message}`);
      assert.equal(run.code, 1);
      assert.ok(message.includes(`DATA_DIR ${dataDir} is not writable: read-only file system (EROFS)`));
      assert.doesNotMatch(message, /at .*\.(js|ts):\d+/, "no stack trace");
      await remount("rw");

      const after = await stored(dataDir);
      assert.deepEqual(after.leads.map((l) => [l.key, l.n]).sort(), [["first", 1], ["later", 1]]);
      server = await startServer({ env: serverEnv(dataDir) });
      assert.equal(await readyReason(server.url), "ready");
    } finally {
      await immutable(false).catch(() => {});
      await remount("rw").catch(() => {});
      await server.stop();
      await disk.unmount();
    }
  },
});
