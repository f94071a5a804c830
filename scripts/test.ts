// `deno task test`: builds the client, then runs every test (unit, API on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL, and browser tests when Chromium is found). Says loudly what it skips.
import { build } from "../build.ts";

const chrome = Deno.env.get("CHROME_PATH") || "/usr/bin/chromium";
const hasChrome = await Deno.stat(chrome).then((s) => s.isFile, () => false);
const hasPostgres = Boolean(Deno.env.get("TEST_DATABASE_URL"));
const banner = (text: string) => console.log(`\n${"!".repeat(78)}\n!! ${text}\n${"!".repeat(78)}\n`);
if (!hasPostgres) banner("SKIPPING the PostgreSQL runs: TEST_DATABASE_URL is not set (PGlite runs only).");
if (!hasChrome) banner(`SKIPPING browser tests: no Chromium at ${chrome} (set CHROME_PATH).`);

await build();
const args = ["test", "-A", "--no-check", ...Deno.args];
if (!Deno.args.some((a) => !a.startsWith("-"))) args.push("src/", "bench/", "e2e/");
const { code } = await new Deno.Command(Deno.execPath(), { args, stdout: "inherit", stderr: "inherit" })
  .spawn()
  .status;
if (!hasPostgres || !hasChrome) banner("Some suites were SKIPPED: see the notes above.");
Deno.exit(code);
