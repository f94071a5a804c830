import assert from "node:assert/strict";
import { isUnavailable } from "./client.ts";
import { createStorageGuard, describeFsError, isReadOnly } from "./storage_guard.ts";

Deno.test("storage guard: free space below the reserve is a problem that names DATA_DIR and the reserve", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(createStorageGuard(dir, { minFreeBytes: 0 }).problem(), null);
    const problem = createStorageGuard(dir, { minFreeBytes: Number.MAX_SAFE_INTEGER }).problem();
    assert.match(problem ?? "", new RegExp(`^DATA_DIR ${dir} has [\\d.]+ MB free, below the \\d+ MB`));
    assert.deepEqual([...Deno.readDirSync(dir)], [], "the write probe leaves nothing behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("storage guard: a directory that cannot be written is a problem, looked at again once a second", async () => {
  const dir = await Deno.makeTempDir();
  let now = 0;
  const guard = createStorageGuard(`${dir}/data`, { minFreeBytes: 0, now: () => now });
  try {
    assert.match(guard.problem() ?? "", /data is not writable: no such directory \(ENOENT\)$/);
    await Deno.mkdir(`${dir}/data`);
    now = 999;
    assert.notEqual(guard.problem(), null, "the answer is reused within the second");
    now = 1000;
    assert.equal(guard.problem(), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("storage guard: statements that only read are told from writes, conservatively", () => {
  for (const sql of ["select 1", "  WITH t as (select 1) select * from t", "show server_version"]) {
    assert.equal(isReadOnly(sql), true, sql);
  }
  for (
    const sql of [
      "insert into leads values (1)",
      "update sessions set x = 1",
      "delete from visits",
      "with input as (select 1) insert into visits select * from input",
      "select * from leads for update",
      "create table x (a int)",
      "begin",
    ]
  ) {
    assert.equal(isReadOnly(sql), false, sql);
  }
});

Deno.test("storage guard: file system errors are named plainly, and a full disk on a server is a 503", () => {
  assert.equal(
    describeFsError(Object.assign(new Error("x"), { code: "EROFS" })),
    "read-only file system (EROFS)",
  );
  assert.equal(describeFsError(new Error("other")), "other");
  assert.equal(isUnavailable({ code: "53100" }), true, "disk_full");
  assert.equal(isUnavailable({ code: "23505" }), false, "a unique violation is the statement's fault");
});
