// Fault: the embedded database's DATA_DIR turns unwritable, while the server runs and before it starts. The
// real server runs as a child process with DATA_DIR on a small tmpfs mounted for the test (root only: the test
// skips loudly elsewhere). While running, the directory is made immutable (which binds root too; file modes do
// not): writes answer 503 at once and resume when it is writable again, nothing lost. At start, a read-only
// remount: the server does not start, and says which directory and why. The full disk is
// src/main_storage_full_test.ts.
import assert from "node:assert/strict";
import { send } from "../testing/load.ts";
import { freePort, startServer } from "../testing/server.ts";
import {
  canMount,
  dataDirOnTmpfs,
  lead,
  readyReason,
  serverEnv,
  sh,
  sleep,
  stored,
} from "../testing/storage_faults.ts";

const mountable = await canMount();

Deno.test({
  name: "faults: PGlite's DATA_DIR unwritable — while running, 503s then writes resume, nothing lost; " +
    "read-only at start, no start and a message naming it",
  ignore: !mountable,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { disk, dataDir } = await dataDirOnTmpfs();
    // Immutable binds root too. (A read-only remount is refused while the database holds files open.)
    const immutable = (on: boolean) => sh("chattr", on ? "+i" : "-i", dataDir);
    const remount = (mode: "ro" | "rw") => sh("mount", "-o", `remount,${mode}`, disk.dir);
    const server = await startServer({ env: serverEnv(dataDir) });
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

      // Writable again, the database opens as it was (the full-disk test also restarts the server on it).
      const after = await stored(dataDir);
      assert.deepEqual(after.leads.map((l) => [l.key, l.n]).sort(), [["first", 1], ["later", 1]]);
    } finally {
      await immutable(false).catch(() => {});
      await remount("rw").catch(() => {});
      await server.stop();
      await disk.unmount();
    }
  },
});
