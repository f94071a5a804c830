// The one password rule, as a table: what each new administrator password gets, wherever it is set.
import assert from "node:assert/strict";
import { isCommonPassword, type PasswordProblem, passwordProblem, strengthScore } from "./password_rule.ts";

const CURRENT = "correct horse battery";
const EMAIL = "joana.prado@zapflow.com.br";

const CASES: Array<[password: string, expected: PasswordProblem | null, why: string]> = [
  ["", "too_short", "empty"],
  ["Xk9$mQ2", "too_short", "7 characters"],
  ["x".repeat(129), "too_long", "129 characters"],
  ["        ", "blank", "8 spaces"],
  [" \t \u00a0  \u3000  ", "blank", "all whitespace, not only ASCII spaces"],
  [CURRENT, "same_as_current", "the current password"],
  ["Correct Horse Battery", "same_as_current", "the current one in other case"],
  ["  correct horse battery  ", "same_as_current", "the current one with spaces around"],
  ["password123", "too_common", "the issue's example"],
  ["PASSWORD123", "too_common", "common, in capitals"],
  [" password123 ", "too_common", "common, with spaces around"],
  ["12345678", "too_common", "digits in a row"],
  ["qwertyuiop", "too_common", "a keyboard row"],
  ["iloveyou", "too_common", "a top-ten password"],
  ["senha123", "too_common", "Brazilian"],
  ["flamengo", "too_common", "a football club"],
  ["zapflow123", "too_common", "the product's name"],
  ["trustno1", "too_common", "from the breach list (not in the old hand-made one)"],
  ["flamengo2024", "too_weak", "a club and a year"],
  ["Maria2026", "too_weak", "a first name and a year"],
  ["Palmeiras2025", "too_weak", "a Brazilian club and a year"],
  ["abcdefgh", "too_weak", "a sequence"],
  ["aaaaaaaaaaaa", "too_weak", "a repetition"],
  ["a1b2c3d4", "too_common", "an alternating pattern, on the list"],
  ["Qwerty2026", "too_weak", "a keyboard row and a year"],
  ["joanaprado", "too_weak", "the administrator's own name"],
  ["x".repeat(128), "too_weak", "128 times one letter"],
  ["Xk9$mQ2p", null, "8 random characters: the minimum stays 8"],
  ["violet lantern orbit 42", null, "unrelated words"],
  ["new correct horse battery", null, "the current one inside a longer one"],
  ["Tr3m-Azul-Cacto", null, "a passphrase with symbols"],
];

Deno.test("password rule: the table of cases", async () => {
  const wrong: string[] = [];
  for (const [password, expected, why] of CASES) {
    const got = await passwordProblem(password, { current: CURRENT, email: EMAIL });
    if (got !== expected) wrong.push(`${why} (${JSON.stringify(password)}): ${got}, expected ${expected}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("password rule: without a current password (first administrator, CLI reset), the rest applies", async () => {
  assert.equal(await passwordProblem(CURRENT, { email: EMAIL }), null);
  assert.equal(await passwordProblem("password123"), "too_common");
  assert.equal(await passwordProblem("        "), "blank");
});

Deno.test("password rule: the common list holds thousands, not 98", async () => {
  const text = await Deno.readTextFile(new URL("./common_passwords.txt", import.meta.url));
  const entries = text.split("\n").filter((l) => l && !l.startsWith("#"));
  assert.ok(entries.length > 15_000, String(entries.length));
  assert.ok(entries.every((p) => p.length >= 8), "shorter ones are refused by length already");
  assert.match(text, /^# .*@zxcvbn-ts\/language-common@4\.1\.3 \(MIT licence/m, "source and licence");
  assert.equal(await isCommonPassword("Dragon12345"), false);
  assert.equal(await isCommonPassword("baseball"), true);
  assert.ok(await strengthScore("Xk9$mQ2p") >= 2);
});

Deno.test("password rule: the admin CLI refuses what the dashboard refuses, before touching the database", async () => {
  const dir = await Deno.makeTempDir({ prefix: "admin_cli_" });
  try {
    const cli = new URL("../../scripts/admin_cli.ts", import.meta.url).pathname;
    for (
      const [password, reason] of [
        ["password123", "one of the most common passwords"],
        ["          ", "only spaces"],
        ["flamengo2024", "too easy to guess"],
      ]
    ) {
      for (const command of ["create", "reset-password"]) {
        const run = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", cli, command, "--email", "boss@example.com", "--password", password],
          env: { DATA_DIR: `${dir}/data`, NO_COLOR: "1" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(180_000),
        }).output();
        const stderr = new TextDecoder().decode(run.stderr);
        assert.equal(run.code, 1, `${command} ${password}: ${stderr}`);
        assert.match(stderr, new RegExp(`^password refused: .*${reason}`), stderr);
      }
    }
    assert.equal(await Deno.stat(`${dir}/data`).then(() => true, () => false), false, "no database opened");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
