// Issue 34: one process per embedded DATA_DIR, and backups that restore. A second server on the same DATA_DIR
// used to start, answer 201 with the same lead ids, and lose its leads at the next restart; admin commands
// "succeeded" against a copy the server then overwrote; `db:backup` taken under traffic exited 0 and did not
// restore. Here, with a real server process under a lead and visit load: a second server and every command
// that opens DATA_DIR are refused with the holder named; `db:backup` works (the server takes the copy), each
// backup restored holds every lead acknowledged before it began; a restart logs no mode repair; the lock
// goes with the process, kill -9 included. bench/live_backups.ts runs 20 backups and prints the numbers.
import assert from "node:assert/strict";
import { join } from "node:path";
import { LOAD_ORIGIN, startLoad } from "../testing/load.ts";
import { freePort, startServer } from "../testing/server.ts";
import { restoreAndCheck, takeBackupsUnderLoad } from "../testing/live_backups.ts";
import { copyDataDir } from "../testing/db_template.ts";

const root = new URL("..", import.meta.url).pathname;

function serverEnv(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, PUBLIC_ORIGIN: LOAD_ORIGIN, TRUST_PROXY: "1", LOG_LEVEL: "warn" };
}

/**
 * Runs a script of this repository with DATA_DIR set; its exit code and everything it printed. Killed after
 * 120 s: before the lock, a second server simply went on serving.
 */
async function run(dataDir: string, script: string, ...args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(root, script), ...args],
    env: { ...serverEnv(dataDir), PORT: String(freePort()), NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  return {
    code: out.code,
    text: (new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr)).trim(),
  };
}

Deno.test({
  name: "DATA_DIR: one process at a time (a second server and every command refused, the holder named), " +
    "backups under traffic restore with every lead, no mode repair at restart, the lock dies with its holder",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const tmp = await Deno.makeTempDir({ prefix: "datadir_test_" });
    const dataDir = join(tmp, "data");
    await copyDataDir(dataDir); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
    let server = await startServer({ env: serverEnv(dataDir) });
    try {
      const holder = new RegExp(
        `is in use by the server \\(PID ${server.pid}, started \\d{4}-\\d\\d-\\d\\dT`,
      );

      // A second server on the same DATA_DIR: refused before it opens anything.
      const second = await run(dataDir, "src/main.ts");
      console.log(`second server: exit ${second.code}: ${second.text}`);
      assert.equal(second.code, 1);
      assert.match(second.text, holder);
      assert.doesNotMatch(second.text, /listening/);

      // Each command that opens DATA_DIR: refused, saying to stop the server first.
      const backupFile = join(tmp, "some-backup.tar.gz");
      await Deno.writeFile(backupFile, new Uint8Array(10));
      for (
        const [script, ...args] of [
          [
            "scripts/admin_cli.ts",
            "create",
            "--email",
            "new@example.com",
            "--password",
            "a long passphrase 9",
          ],
          [
            "scripts/admin_cli.ts",
            "reset-password",
            "--email",
            "new@example.com",
            "--password",
            "a long pass 9!",
          ],
          ["src/db/migrate_cli.ts"],
          ["src/db/backup_cli.ts", "restore", backupFile, "--force"],
        ]
      ) {
        const refused = await run(dataDir, script, ...args);
        console.log(`${script} ${args[0] ?? ""}: exit ${refused.code}`);
        assert.equal(refused.code, 1, refused.text);
        assert.match(refused.text, holder, refused.text);
        assert.match(refused.text, /Stop the server first/);
        assert.doesNotMatch(refused.text, /at .*\.ts:\d+/, "no stack trace");
      }

      // Backups while leads and visits keep arriving: the server takes each copy.
      const load = startLoad(server.url, { visitors: 2, browsers: 2, leadEveryMs: 40 });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const taken = await takeBackupsUnderLoad(dataDir, join(tmp, "backups"), load, 2);
      await load.stop();
      const results = await restoreAndCheck(taken, tmp);
      for (const r of results) {
        console.log(
          `backup ${r.file.split("/").pop()}: ${r.bytes} bytes in ${r.ms} ms; leads acknowledged before ` +
            `${r.leadsBefore.length}, restored ${r.restoredLeads}, missing ${r.missing.length}; visits ` +
            `acknowledged before ${r.visitsBefore}, restored ${r.restoredVisits}`,
        );
        assert.match(r.output, /taken by the running server/);
        assert.match(r.output, /verified: it opens; rows: leads \d+, visits \d+/);
        assert.ok(r.leadsBefore.length > 0, "leads were acknowledged before the backup");
        assert.deepEqual(r.missing, []);
        assert.ok(r.restoredVisits >= r.visitsBefore, `visits ${r.restoredVisits} < ${r.visitsBefore}`);
      }

      // A clean stop and a restart: nothing to repair (the files PGlite writes at start are created private).
      assert.equal(await server.stop(), 0, server.output().slice(-2000));
      server = await startServer({ env: serverEnv(dataDir) });
      assert.doesNotMatch(server.output(), /modes repaired/, server.output());

      // kill -9: the operating system releases the lock; the next server starts without cleaning anything.
      Deno.kill(server.pid, "SIGKILL");
      await server.stop();
      server = await startServer({ env: serverEnv(dataDir) });
      const res = await fetch(`${server.url}/readyz`);
      await res.body?.cancel();
      assert.equal(res.status, 200);
    } finally {
      await server.stop();
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
