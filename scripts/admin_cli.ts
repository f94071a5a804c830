// `deno task admin:create` and `deno task admin:reset-password`: manage the single administrator from a
// terminal. Flags `--email` and `--password`; whatever is missing is asked for (the password without echo).
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { type Db, openDb } from "../src/db/client.ts";
import { DataDirBusy } from "../src/db/data_dir_lock.ts";
import { migrate } from "../src/db/migrate.ts";
import { countAdmins, findAdminByEmail } from "../src/db/admins.ts";
import { bootstrapAdmin, resetPassword } from "../src/services/auth.ts";
import { PASSWORD_PROBLEM_TEXT, passwordProblem } from "../src/services/password_rule.ts";

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { email: { type: "string" }, password: { type: "string" } },
});
const command = positionals[0];
if (command !== "create" && command !== "reset-password") {
  console.error("usage: admin_cli.ts create|reset-password [--email you@example.com] [--password ...]");
  Deno.exit(2);
}

async function readHidden(question: string): Promise<string> {
  if (!Deno.stdin.isTerminal()) return prompt(question) ?? "";
  await Deno.stdout.write(new TextEncoder().encode(question + " "));
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  const buf = new Uint8Array(1);
  try {
    while (true) {
      const n = await Deno.stdin.read(buf);
      if (n === null || buf[0] === 13 || buf[0] === 10) break;
      if (buf[0] === 3) Deno.exit(130); // Ctrl+C
      if (buf[0] === 127 || buf[0] === 8) bytes.pop();
      else bytes.push(buf[0]);
    }
  } finally {
    Deno.stdin.setRaw(false);
    console.log();
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function fail(message: string): never {
  console.error(message);
  Deno.exit(1);
}

const email = (values.email ?? prompt("Administrator e-mail:") ?? "").trim().toLowerCase();
if (!/^\S+@\S+\.\S+$/.test(email)) fail("a valid e-mail is required");
let password = values.password;
if (password === undefined) {
  password = await readHidden("New password:");
  if (password !== await readHidden("Repeat it:")) fail("the passwords differ");
}
// The one password rule of the dashboard and ADMIN_PASSWORD (src/services/password_rule.ts).
const problem = await passwordProblem(password, { email });
if (problem) fail(`password refused: ${PASSWORD_PROBLEM_TEXT[problem]}`);

const config = loadConfig(Deno.env.toObject());
let db: Db;
try {
  // The embedded database has one owner: while the server runs, this is refused (stop it first), never
  // applied to a copy the server would overwrite.
  db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    minFreeBytes: config.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
    owner: `admin:${command}`,
  });
} catch (error) {
  if (!(error instanceof DataDirBusy)) throw error;
  fail(error.message);
}
try {
  await migrate(db);
  if (command === "create") {
    if (await countAdmins(db) > 0) {
      const same = await findAdminByEmail(db, email);
      fail(
        same
          ? "this administrator already exists; use `deno task admin:reset-password` to change the password"
          : "an administrator already exists (there is only one); use `deno task admin:reset-password`",
      );
    }
    await bootstrapAdmin(db, email, password);
    console.log(`administrator ${email} created`);
  } else {
    if (!await resetPassword(db, email, password)) fail(`no administrator with the e-mail ${email}`);
    console.log(`password of ${email} changed; every session of it was ended`);
  }
} finally {
  await db.close();
}
