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
// One retry for a test that failed: the suite runs on a shared two-core machine at a load of 8 to 11, where a
// browser test now and then misses a deadline that holds on a quiet machine. After the run, the tests that
// failed (read from Deno's JUnit report) run once more, alone; a test that fails twice fails the run, and
// every retried test is named loudly with its first failure, so a flaky test is seen, not hidden. More than
// MAX_RETRIED failures, or a failure outside any test (a file that does not load), is not retried.
const MAX_RETRIED = 3;
const jobs = Deno.env.get("DENO_JOBS") ||
  String(Math.max(2, Math.round(navigator.hardwareConcurrency * 1.5)));
const reportDir = await Deno.makeTempDir({ prefix: "test_report_" });
const run = async (runArgs: string[], report: string) =>
  (await new Deno.Command(Deno.execPath(), {
    args: [...runArgs.slice(0, 3), `--junit-path=${report}`, ...runArgs.slice(3)],
    env: { DENO_JOBS: jobs },
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status).code;
const started = performance.now();
let code = await run(args, `${reportDir}/first.xml`);
if (code !== 0) {
  const first = await readReport(`${reportDir}/first.xml`);
  const failed = first.filter((t) => t.failure && !t.step);
  const outsideTests = failed.length === 0;
  if (!outsideTests && failed.length <= MAX_RETRIED) {
    banner(`RETRYING ${failed.length} failed test(s) once, alone: ${failed.map((t) => t.name).join("; ")}`);
    // The same files as the first run, narrowed to the failed names: the report names the file a test was
    // registered from, which for a helper (testing/db.ts dbTest, e2e/browser.ts) is the helper's, not the
    // test module's, so the modules are all loaded again and only those tests run.
    const only = `/^(?:${failed.map((t) => escapeRegExp(t.name)).join("|")})$/`;
    const again = await run([...args, "--filter", only], `${reportDir}/retry.xml`);
    const retried = await readReport(`${reportDir}/retry.xml`);
    const passedAgain = failed.filter((t) => retried.some((r) => r.name === t.name && !r.step && !r.failure));
    for (const t of passedAgain) {
      console.log(`FLAKY: "${t.name}" failed, then passed on its second run. First failure:\n${t.failure}\n`);
    }
    const stillFailing = failed.length - passedAgain.length;
    const tests = first.filter((t) => !t.step).length;
    const seconds = Math.round((performance.now() - started) / 1000);
    const time = `${Math.floor(seconds / 60)}m${seconds % 60}s`;
    code = again === 0 && stillFailing === 0 ? 0 : 1;
    // The closing line CI reads: every test of the first run, the retried ones counted by their second run.
    console.log(
      `\n${code === 0 ? "ok" : "FAILED"} | ${tests - stillFailing} passed | ${stillFailing} failed | ` +
        `${passedAgain.length} passed on retry (${time})`,
    );
  }
}
await Deno.remove(reportDir, { recursive: true }).catch(() => {});
if (!hasPostgres || (!hasChrome && !faults) || (!hasCaddy && faults)) {
  banner("Some suites were SKIPPED: see the notes above.");
}
Deno.exit(code);

/** A test case; `file` is where it was registered (a helper's file for a helper's tests). */
type Case = { file: string; name: string; step: boolean; failure: string };

/** The test cases of Deno's JUnit report; a step is named "test > step" after its test. */
async function readReport(path: string): Promise<Case[]> {
  const xml = await Deno.readTextFile(path).catch(() => "");
  const cases: Case[] = [];
  for (const m of xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)) {
    const failure = /<failure[^>]*>([\s\S]*?)<\/failure>/.exec(m[3]);
    cases.push({
      name: unescapeXml(m[1]),
      file: unescapeXml(m[2]),
      step: false,
      failure: unescapeXml(failure?.[1] ?? ""),
    });
  }
  const names = new Set(cases.map((c) => `${c.file}\0${c.name}`));
  for (const c of cases) {
    const parts = c.name.split(" > ");
    c.step = parts.some((_, i) => i > 0 && names.has(`${c.file}\0${parts.slice(0, i).join(" > ")}`));
  }
  return cases;
}

function unescapeXml(text: string): string {
  return text.replace(
    /&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-f]+));/gi,
    (_, name, dec, hex) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (
        { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" } as Record<string, string>
      )[name],
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
