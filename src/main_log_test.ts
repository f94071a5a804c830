// Every line the server prints from start to stop is one JSON object (a log collector reads each as an event):
// the build note of `deno task start`, where it listens, a refused configuration, a DATA_DIR it cannot use.
import assert from "node:assert/strict";
import { join } from "node:path";
import { setLogLevel, setLogSink } from "./core/log.ts";
import { buildIfStale } from "../scripts/start.ts";
import { freePort, startServer } from "../testing/server.ts";
import { copyDataDir } from "../testing/db_template.ts";

const MAIN = new URL("./main.ts", import.meta.url).pathname;

/** Each non-empty line parsed; fails naming the first line that is not a JSON object with time, level, msg. */
function jsonLines(output: string): Array<Record<string, unknown>> {
  return output.split("\n").filter((l) => l.trim()).map((line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      assert.fail(`not a JSON line: ${line}`);
    }
    const entry = parsed as Record<string, unknown>;
    assert.ok(entry && typeof entry.time === "string" && typeof entry.level === "string", line);
    assert.equal(typeof entry.msg, "string", line);
    return entry;
  });
}

Deno.test("start: the build note is a JSON line, even at LOG_LEVEL=warn", async () => {
  const lines: string[] = [];
  setLogLevel("warn");
  const restore = setLogSink((_level, line) => lines.push(line));
  try {
    await buildIfStale(() => Promise.resolve(false), () => Promise.reject(new Error("no build wanted")));
    assert.deepEqual(lines, [], "nothing to say when the client is fresh");
    await buildIfStale(() => Promise.resolve(true), () => Promise.resolve({ files: 12, bytes: 345_678 }));
  } finally {
    restore();
    setLogLevel("warn");
  }
  const entries = jsonLines(lines.join("\n"));
  assert.deepEqual(entries.map((e) => e.msg), [
    "building the client: its sources changed since the last build",
    "client built",
  ]);
  assert.equal(entries[1].files, 12);
  assert.equal(entries[1].bytes, 345_678);
});

Deno.test({
  name: "start: the server's every line, from start to stop, is JSON; where it listens is said at any level",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "main_log_" });
    try {
      await copyDataDir(join(dir, "data")); // a migrated DATA_DIR (testing/db_template.ts): no initdb, nothing to migrate
      const server = await startServer({
        env: { PUBLIC_ORIGIN: "http://localhost:8000", LOG_LEVEL: "warn", DATA_DIR: join(dir, "data") },
      });
      const code = await server.stop();
      const output = server.output();
      assert.equal(code, 0, output);
      const entries = jsonLines(output);
      const listening = entries.find((e) => String(e.msg).startsWith("listening on http://127.0.0.1:"));
      assert.ok(listening, output);
      assert.equal(listening.database, "embedded");
      assert.equal(listening.dataDir, join(dir, "data"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("start: a refused configuration and an unusable DATA_DIR are JSON lines too (exit 1)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "main_log_" });
  try {
    const run = (env: Record<string, string>) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN],
        env: { PUBLIC_ORIGIN: "http://localhost:8000", PORT: String(freePort()), NO_COLOR: "1", ...env },
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(180_000),
      }).output();
    const bad = await run({ RETENTION_DAYS: "zero", LOG_LEVEL: "loud" });
    assert.equal(bad.code, 1);
    const [refused, ...more] = jsonLines(
      new TextDecoder().decode(bad.stderr) + new TextDecoder().decode(bad.stdout),
    );
    assert.deepEqual(more, []);
    assert.equal(refused.level, "error");
    assert.match(String(refused.msg), /^invalid environment configuration/);
    const problems = refused.problems as string[];
    assert.ok(problems.some((p) => p.startsWith("RETENTION_DAYS: ")), JSON.stringify(problems));
    assert.ok(problems.some((p) => p.startsWith("LOG_LEVEL: ")), JSON.stringify(problems));

    const notADir = join(dir, "file");
    await Deno.writeTextFile(notADir, "not a directory");
    const unusable = await run({ DATA_DIR: notADir });
    assert.equal(unusable.code, 1);
    const lines = jsonLines(
      new TextDecoder().decode(unusable.stderr) + new TextDecoder().decode(unusable.stdout),
    );
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.match(String(lines[0].msg), new RegExp(notADir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    assert.match(String(lines[0].hint), /DATA_DIR_MIN_FREE_MB/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("start: a weak ADMIN_PASSWORD stops the first start with one JSON line (exit 1)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "main_log_" });
  try {
    // Migrated but without an administrator, as at a first start; no initdb to wait for.
    await copyDataDir(join(dir, "data"));
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN],
      env: {
        PUBLIC_ORIGIN: "http://localhost:8000",
        PORT: String(freePort()),
        NO_COLOR: "1",
        LOG_LEVEL: "warn",
        DATA_DIR: join(dir, "data"),
        ADMIN_EMAIL: "owner@example.com",
        ADMIN_PASSWORD: "password123",
      },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(180_000), // a start that does not refuse would serve for ever
    }).output();
    const output = new TextDecoder().decode(run.stderr) + new TextDecoder().decode(run.stdout);
    assert.equal(run.code, 1, output);
    const [refused, ...more] = jsonLines(output);
    assert.deepEqual(more, []);
    assert.equal(refused.level, "error");
    assert.equal(refused.reason, "too_common");
    assert.match(
      String(refused.msg),
      /^ADMIN_PASSWORD refused: the password is one of the most common passwords/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
