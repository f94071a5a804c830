import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { DataDirBusy, LOCK_FILE, lockDataDir, readHolder } from "./data_dir_lock.ts";
import { openDb } from "./client.ts";
import { copyDataDir } from "../../testing/db_template.ts";

Deno.test("DATA_DIR lock: a second taker is refused with the holder named; released, it can be taken", async () => {
  const dir = join(await Deno.makeTempDir({ prefix: "lock_test_" }), "data");
  try {
    const first = await lockDataDir(dir, "server");
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(join(dir, LOCK_FILE))).mode! & 0o777, 0o600);
    await first.publish({ backupPort: 1234, backupToken: "t" });
    assert.deepEqual(await readHolder(dir), { ...first.holder, backupPort: 1234, backupToken: "t" });

    const refused = await lockDataDir(dir, "db:migrate").then(() => null, (error) => error);
    assert.ok(refused instanceof DataDirBusy);
    assert.equal(refused.holder?.pid, Deno.pid);
    assert.match(
      refused.message,
      new RegExp(`is in use by the server \\(PID ${Deno.pid}, started ${first.holder.startedAt}\\)`),
    );
    assert.match(refused.message, /Stop the server first/);

    first.release();
    assert.equal(await readHolder(dir), null, "the token does not outlive the holder");
    const second = await lockDataDir(dir, "db:migrate");
    assert.equal((await readHolder(dir))?.role, "db:migrate");
    second.release();
  } finally {
    await Deno.remove(dirname(dir), { recursive: true });
  }
});

Deno.test({
  name: "DATA_DIR lock: the embedded database opens once per DATA_DIR; close releases it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "lock_test_" });
    try {
      const dataDir = join(root, "data");
      await copyDataDir(dataDir); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
      const db = await openDb({ dataDir, owner: "admin:create" });
      const refused = await openDb({ dataDir, owner: "server" }).then(() => null, (error) => error);
      assert.ok(refused instanceof DataDirBusy, String(refused));
      assert.match(refused.message, /in use by `deno task admin:create` \(PID \d+/);
      await db.close();
      const again = await openDb({ dataDir, owner: "server" });
      await again.close();
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("DATA_DIR lock: released by the operating system when its holder is killed (kill -9)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lock_test_" });
  try {
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const { lockDataDir } = await import(${
          JSON.stringify(new URL("./data_dir_lock.ts", import.meta.url).href)
        });
         await lockDataDir(${JSON.stringify(dir)}, "db:restore");
         console.log("locked");
         setInterval(() => {}, 1000);`,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = holder.stdout.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /locked/);
    const refused = await lockDataDir(dir, "server").then(() => null, (error) => error);
    assert.ok(refused instanceof DataDirBusy);
    assert.equal(refused.holder?.pid, holder.pid);
    assert.equal(refused.holder?.role, "db:restore");

    holder.kill("SIGKILL");
    await holder.status;
    reader.releaseLock();
    await holder.stdout.cancel();
    const lock = await lockDataDir(dir, "server"); // no stale lock to clean up
    lock.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
