// `deno task test`: builds the client when its sources changed, then runs every test file in parallel (unit,
// API on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL, and browser tests when Chromium is found)
// except the process-level fault and soak tests. `deno task test:faults` (this script with --faults) runs
// those: each drives a real server process to its limits (descriptors, disk, a cut database, SIGTERM under
// load, a soak); the flood test alone, then the others four at a time (see `runs` below). Both first build the
// migrated databases the test processes start from (testing/db_template.ts). Says loudly what it skips.
//   deno run -A scripts/test.ts [--faults] [deno test flags] [files]
import { ensureGeoDb } from "./geoip_db.ts";
import { buildIfStale } from "./start.ts";

/** The fault test that runs alone (scripts/test.ts --faults): it bounds answer times under a flood. */
const FLOOD_TEST = "src/main_flood_test.ts";

/**
 * Fault and soak tests: whole server processes under a fault or a sustained load (see each file's header). Run
 * four at a time (below), they start in this order: the longest first, so that they end close together, but the
 * full disk, whose 503s must come within 1 s, beside the unwritable DATA_DIR (which mostly waits) rather than
 * the outage's load (with it and SIGTERM's beside it, the slowest took 790 ms in one CI run); the soak last,
 * since a fixed rate is what a busy neighbour upsets most.
 */
export const FAULT_TESTS = [
  "src/main_caddy_test.ts",
  "src/main_storage_full_test.ts",
  "src/main_storage_readonly_test.ts",
  "src/main_sigterm_test.ts",
  "src/main_outage_test.ts",
  "src/main_sigterm_stalled_test.ts",
  "src/soak_test.ts",
  FLOOD_TEST,
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

// The client is built when its sources changed since the last build (as `deno task start` does).
await buildIfStale();
// The migrated databases every test process copies instead of migrating its own (testing/db_template.ts):
// built here once, before the processes start, when the migrations changed since the last run.
const templates = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("../testing/db_template.ts", import.meta.url).pathname],
  stdout: "inherit",
  stderr: "inherit",
}).spawn().status;
if (!templates.success) Deno.exit(templates.code || 1);
const base = ["test", "-A", "--no-check"];
const named = rest.some((a) => !a.startsWith("-"));
// DENO_JOBS sets how many files run at once; by default one and a half per CPU, since a browser test spends
// much of its time waiting on the page. On 2 cores, with the headless shell: 3 files at once ran the suite in
// 11m20s (median load 5.7), 4 in 10m37s (load 8.1).
const jobs = Deno.env.get("DENO_JOBS") ||
  String(Math.max(2, Math.round(navigator.hardwareConcurrency * 1.5)));
/** The `deno test` runs, one after the other, and how many files each runs at once. */
const runs: { args: string[]; jobs: string }[] = [];
if (faults && named) runs.push({ args: [...base, ...rest], jobs: "1" });
else if (faults) {
  // The flood test first, alone: it bounds how fast /healthz answers during a flood, which a neighbour's CPU
  // moves (one probe took 1.0 s, its limit, with two other fault files beside it). The others then run four
  // at a time: each drives its own server on its own ports, schema or DATA_DIR, and asserts what was stored,
  // lost or answered, with time bounds that held side by side with a margin (over three runs: the slowest 503
  // of the full disk 407 ms against 1 s, of the outage 149 ms against 2 s, a /healthz probe through Caddy 223
  // ms against 1 s, the stalled SIGTERM's exit 5.5 s against 10 s). Four rather than three: much of a fault
  // test is waiting (Caddy's 10 s timeouts, the 10 s outage, the 6 s drain limit), and the run took 47-51 s
  // against 55-57 s.
  runs.push({ args: [...base, ...rest, FLOOD_TEST], jobs: "1" });
  runs.push({
    args: [...base, "--parallel", ...rest, ...FAULT_TESTS.filter((f) => f !== FLOOD_TEST)],
    jobs: "4",
  });
} else {
  // Every file runs in its own isolate; databases are per test process and schema (testing/db.ts), ports
  // are picked free, so files do not see each other.
  const all = named ? [] : [`--ignore=${FAULT_TESTS.join(",")}`, "src/", "bench/", "e2e/"];
  runs.push({ args: [...base, "--parallel", ...rest, ...all], jobs });
}
// One retry for a test that failed: the suite runs on a shared two-core machine at a load of 8 to 11, where a
// browser test now and then misses a deadline that holds on a quiet machine. After the run, the tests that
// failed (read from Deno's JUnit report) run once more, alone; a test that fails twice fails the run, and
// every retried test is named loudly with its first failure, so a flaky test is seen, not hidden. More than
// MAX_RETRIED failures, or a failure outside any test (a file that does not load), is not retried.
const MAX_RETRIED = 3;
const reportDir = await Deno.makeTempDir({ prefix: "test_report_" });
const run = async (runArgs: string[], runJobs: string, report: string) =>
  (await new Deno.Command(Deno.execPath(), {
    args: [...runArgs.slice(0, 3), `--junit-path=${report}`, ...runArgs.slice(3)],
    env: { DENO_JOBS: runJobs },
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status).code;
const started = performance.now();
let code = 0;
let tests = 0;
let failedTests = 0;
let passedOnRetry = 0;
// Deno's own closing line stands for a single run without retries; otherwise this script writes the line.
let ownSummary = runs.length > 1;
for (const [i, { args, jobs }] of runs.entries()) {
  let runCode = await run(args, jobs, `${reportDir}/${i}.xml`);
  const first = await readReport(`${reportDir}/${i}.xml`);
  const failed = first.filter((t) => t.failure && !t.step);
  tests += first.filter((t) => !t.step && !t.skipped).length;
  if (runCode !== 0 && failed.length > 0 && failed.length <= MAX_RETRIED) {
    ownSummary = true;
    banner(`RETRYING ${failed.length} failed test(s) once, alone: ${failed.map((t) => t.name).join("; ")}`);
    // The same files as the first run, narrowed to the failed names: the report names the file a test was
    // registered from, which for a helper (testing/db.ts dbTest, e2e/browser.ts) is the helper's, not the
    // test module's, so the modules are all loaded again and only those tests run.
    const only = `/^(?:${failed.map((t) => escapeRegExp(t.name)).join("|")})$/`;
    const again = await run([...args, "--filter", only], jobs, `${reportDir}/${i}-retry.xml`);
    const retried = await readReport(`${reportDir}/${i}-retry.xml`);
    const passedAgain = failed.filter((t) => retried.some((r) => r.name === t.name && !r.step && !r.failure));
    for (const t of passedAgain) {
      console.log(`FLAKY: "${t.name}" failed, then passed on its second run. First failure:\n${t.failure}\n`);
    }
    passedOnRetry += passedAgain.length;
    failedTests += failed.length - passedAgain.length;
    runCode = again === 0 && passedAgain.length === failed.length ? 0 : 1;
  } else if (runCode !== 0) {
    // Not retried: too many failures, or a failure outside any test (then the report may name none).
    failedTests += Math.max(1, failed.length);
  }
  if (runCode !== 0) code = 1;
}
if (ownSummary) {
  const seconds = Math.round((performance.now() - started) / 1000);
  const time = `${Math.floor(seconds / 60)}m${seconds % 60}s`;
  // The closing line CI reads: every test of every run, the retried ones counted by their second run.
  console.log(
    `\n${code === 0 ? "ok" : "FAILED"} | ${tests - failedTests} passed | ${failedTests} failed` +
      `${passedOnRetry ? ` | ${passedOnRetry} passed on retry` : ""} (${time})`,
  );
}
await Deno.remove(reportDir, { recursive: true }).catch(() => {});
if (!hasPostgres || (!hasChrome && !faults) || (!hasCaddy && faults)) {
  banner("Some suites were SKIPPED: see the notes above.");
}
Deno.exit(code);

/** A test case; `file` is where it was registered (a helper's file for a helper's tests). */
type Case = { file: string; name: string; step: boolean; skipped: boolean; failure: string };

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
      skipped: /<skipped\b/.test(m[3]),
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
