// `deno task test`: builds the client, then runs every test file in parallel (unit, API on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL, and browser tests when Chromium is found) except the process-level
// fault and soak tests. `deno task test:faults` (this script with --faults) runs those, one file at a time:
// each drives a real server process to its limits (descriptors, disk, a cut database, SIGTERM under load, a
// soak), so they would measure each other if run side by side. Both first build the migrated databases the
// test processes start from (testing/db_template.ts). Says loudly what it skips.
//   deno run -A scripts/test.ts [--faults] [deno test flags] [files]
import { build } from "../build.ts";
import { ensureGeoDb } from "./geoip_db.ts";

/** Fault and soak tests: whole server processes under a fault or a sustained load (see each file's header). */
export const FAULT_TESTS = [
  "src/main_caddy_test.ts",
  "src/main_flood_test.ts",
  "src/main_outage_test.ts",
  "src/main_sigterm_test.ts",
  "src/main_storage_test.ts",
  "src/soak_test.ts",
];

const faults = Deno.args.includes("--faults");
await ensureGeoDb();
const rest = Deno.args.filter((a) => a !== "--faults");

const isFile = (path: string) => Deno.stat(path).then((s) => s.isFile, () => false);
const chrome = Deno.env.get("CHROME_PATH") || "/usr/bin/chromium";
// The browser tests drive the headless shell when it is there, else the full Chromium (e2e/browser.ts).
const shell = Deno.env.get("CHROME_HEADLESS_SHELL") || "/usr/lib/chromium/chromium-headless-shell";
const hasShell = await isFile(shell);
const hasChrome = hasShell || await isFile(chrome);
const hasPostgres = Boolean(Deno.env.get("TEST_DATABASE_URL"));
const banner = (text: string) => console.log(`\n${"!".repeat(78)}\n!! ${text}\n${"!".repeat(78)}\n`);
if (!hasPostgres) banner("SKIPPING the PostgreSQL runs: TEST_DATABASE_URL is not set (PGlite runs only).");
if (!hasChrome && !faults) banner(`SKIPPING browser tests: no Chromium at ${chrome} (set CHROME_PATH).`);
if (hasChrome && !hasShell && !faults) {
  console.log(
    `note: no headless shell at ${shell}: the browser tests drive the full Chromium, which is slower.`,
  );
}
const caddy = Deno.env.get("CADDY_PATH") || "/usr/bin/caddy";
const hasCaddy = await isFile(caddy);
if (!hasCaddy && faults) {
  banner(`SKIPPING the Caddy front-door test: no Caddy at ${caddy} (apt-get install caddy).`);
}

await build();
// The migrated databases every test process copies instead of migrating its own (testing/db_template.ts):
// built here once, before the processes start, when the migrations changed since the last run.
const templates = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("../testing/db_template.ts", import.meta.url).pathname],
  stdout: "inherit",
  stderr: "inherit",
}).spawn().status;
if (!templates.success) Deno.exit(templates.code || 1);
const args = ["test", "-A", "--no-check"];
const named = rest.some((a) => !a.startsWith("-"));
if (faults) {
  args.push(...rest);
  if (!named) args.push(...FAULT_TESTS);
} else {
  // Every file runs in its own isolate; databases are per test process and schema (testing/db.ts), ports
  // are picked free, so files do not see each other. DENO_JOBS sets how many at once; by default one and a
  // half per CPU, since a browser test spends much of its time waiting on the page. On 2 cores, with the
  // headless shell: 3 files at once ran the suite in 11m20s (median load 5.7), 4 in 10m37s (load 8.1).
  args.push("--parallel", ...rest);
  if (!named) args.push(`--ignore=${FAULT_TESTS.join(",")}`, "src/", "bench/", "e2e/");
}
// Deno's own summary line ("ok | N passed | N failed (time)") is the last thing printed, but for the banner.
const jobs = Deno.env.get("DENO_JOBS") ||
  String(Math.max(2, Math.round(navigator.hardwareConcurrency * 1.5)));
const { code } = await new Deno.Command(Deno.execPath(), {
  args,
  env: { DENO_JOBS: jobs },
  stdout: "inherit",
  stderr: "inherit",
})
  .spawn()
  .status;
if (!hasPostgres || (!hasChrome && !faults) || (!hasCaddy && faults)) {
  banner("Some suites were SKIPPED: see the notes above.");
}
Deno.exit(code);
