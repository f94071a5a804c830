// `deno task lighthouse [--runs N]`: scores every public page (18: six pages in pt, en and es) with Lighthouse
// (npm, run with Node, mobile preset, the system Chromium), N runs in a row (default 1). Prints each run's
// table with the load average beside every page, writes every run's table to docs/PERFORMANCE.md (section
// "Islands (issue 16)") and fails below the floors: performance >= 98, total blocking time <= 50 ms, CLS 0,
// accessibility, best practices and SEO 100. Not part of `deno task test`: the machine's load moves the figures.
// `--only /en/clientes,/en` measures those pages alone, prints their long tasks and main-thread time, and leaves
// docs/PERFORMANCE.md as it is. Every page over the TBT floor has those printed too: what to make lighter.
import { parseArgs } from "node:util";
import { build } from "../build.ts";
import { CHROME_ARGS, CHROME_PATH, serveApp } from "../e2e/browser.ts";
import { LANGS } from "../src/shared/languages.ts";
import { pagePath, PUBLIC_PAGES } from "../src/shared/routes.ts";

const LIGHTHOUSE = "lighthouse@12.8.2"; // 13.x needs Node >= 22
const FLOORS = { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 } as const;
const MAX_TBT_MS = 50;
const MAX_CLS = 0;
type Category = keyof typeof FLOORS;

const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "1" }, only: { type: "string" } },
});
const only = values.only?.split(",").map((p) => p.trim()).filter(Boolean);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 10) {
  console.error(`--runs must be a whole number from 1 to 10, not ${JSON.stringify(values.runs)}`);
  Deno.exit(2);
}

function lighthouse(url: string): Promise<Deno.CommandOutput> {
  return new Deno.Command("npx", {
    args: [
      "-y",
      LIGHTHOUSE,
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance,accessibility,best-practices,seo",
      `--chrome-flags=${CHROME_ARGS.join(" ")}`,
    ],
    env: { CHROME_PATH },
    stdout: "piped",
    stderr: "piped",
  }).output();
}

interface Row {
  path: string;
  scores: Record<Category, number>;
  lcp: number;
  tbt: number;
  cls: number;
  /** 1-minute load average when the page was measured. */
  load: number;
}

const load = () => Deno.loadavg()[0].toFixed(2);

/**
 * Writes the runs so far into this script's part of docs/PERFORMANCE.md (between its markers, in the section
 * "Islands (issue 16)"), after every run: a long series stopped half-way keeps what it measured.
 */
async function writeTables(tables: string[]): Promise<void> {
  const section = `<!-- lighthouse-runs:start -->

Measured with \`deno task lighthouse --runs ${runs}\` (${LIGHTHOUSE}, mobile preset with simulated throttling,
system Chromium, the production build served by the app over an empty PGlite database). Floors:
performance at least 98, TBT at most 50 ms, CLS 0, accessibility, best practices and SEO 100. "load" is the machine's 1-minute load
average when the page was measured (2 cores, shared).

${tables.join("\n\n")}

<!-- lighthouse-runs:end -->`;
  const docFile = new URL("../docs/PERFORMANCE.md", import.meta.url);
  const current = await Deno.readTextFile(docFile).catch(() => "# Performance\n");
  const markers = /<!-- lighthouse-runs:start -->[\s\S]*<!-- lighthouse-runs:end -->/;
  await Deno.writeTextFile(
    docFile,
    markers.test(current)
      ? current.replace(markers, () => section)
      : current.trimEnd() + "\n\n## Islands (issue 16)\n\n### Lighthouse\n\n" + section + "\n",
  );
  await new Deno.Command(Deno.execPath(), { args: ["fmt", docFile.pathname] }).output();
}

interface LongTask {
  url: string;
  duration: number;
  startTime: number;
}
interface WorkGroup {
  groupLabel: string;
  duration: number;
}

/** The long tasks of a page (as simulated on the throttled phone) and its main-thread time by kind of work. */
function whatBlocked(report: { audits: Record<string, { details?: { items?: unknown[] } }> }): string {
  const tasks = (report.audits["long-tasks"]?.details?.items ?? []) as LongTask[];
  const work = (report.audits["mainthread-work-breakdown"]?.details?.items ?? []) as WorkGroup[];
  return [
    "  long tasks: " +
    (tasks.map((t) => `${Math.round(t.duration)} ms at ${Math.round(t.startTime)} ms (${t.url})`).join(
      "; ",
    ) ||
      "none"),
    "  main thread: " + work.map((w) => `${w.groupLabel} ${Math.round(w.duration)} ms`).join(", "),
  ].join("\n");
}

await build();
const server = await serveApp();
const tables: string[] = [];
const failures: string[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    const started = new Date();
    const loadBefore = load();
    console.log(`run ${run}/${runs}: load average ${loadBefore}`);
    const rows: Row[] = [];
    for (const page of PUBLIC_PAGES) {
      for (const lang of LANGS) {
        const path = pagePath(page, lang);
        if (only && !only.includes(path)) continue;
        // Lighthouse now and then fails to record a trace (NO_NAVSTART); one more attempt settles it.
        let out = await lighthouse(server.baseUrl + path);
        if (out.code !== 0) out = await lighthouse(server.baseUrl + path);
        if (out.code !== 0) {
          failures.push(
            `run ${run} ${path}: lighthouse exited ${out.code}: ${
              new TextDecoder().decode(out.stderr).slice(-400)
            }`,
          );
          continue;
        }
        const report = JSON.parse(new TextDecoder().decode(out.stdout));
        const scores = Object.fromEntries(
          (Object.keys(FLOORS) as Category[]).map((c) => [c, Math.round(report.categories[c].score * 100)]),
        ) as Record<Category, number>;
        const audit = (id: string) => report.audits[id]?.numericValue ?? NaN;
        const row: Row = {
          path,
          scores,
          lcp: audit("largest-contentful-paint"),
          tbt: audit("total-blocking-time"),
          cls: audit("cumulative-layout-shift"),
          load: Deno.loadavg()[0],
        };
        rows.push(row);
        const failed = () =>
          Object.values(report.audits as Record<string, { score: number | null; id: string }>)
            .filter((a) => a.score !== null && a.score < 0.9).map((a) => a.id).slice(0, 8).join(", ");
        for (const c of Object.keys(FLOORS) as Category[]) {
          if (scores[c] < FLOORS[c]) {
            failures.push(
              `run ${run} ${path}: ${c} ${scores[c]} < ${FLOORS[c]} (audits below 0.9: ${failed()})`,
            );
          }
        }
        if (!(row.tbt <= MAX_TBT_MS)) failures.push(`run ${run} ${path}: TBT ${Math.round(row.tbt)} ms > 50`);
        if (!(row.cls <= MAX_CLS)) failures.push(`run ${run} ${path}: CLS ${row.cls.toFixed(3)} > 0`);
        console.log(
          `${path}: ${JSON.stringify(scores)} TBT ${Math.round(row.tbt)} ms LCP ${Math.round(row.lcp)} ms` +
            ` CLS ${row.cls.toFixed(3)} (load ${row.load.toFixed(2)})`,
        );
        if (only || !(row.tbt <= MAX_TBT_MS)) console.log(whatBlocked(report));
      }
    }
    const table = [
      `#### Run ${run} of ${runs}: ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ` +
      `load average ${loadBefore} before, ${load()} after`,
      "",
      "| page | performance | accessibility | best practices | SEO | LCP (ms) | TBT (ms) | CLS | load |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map((r) =>
        `| \`${r.path}\` | ${r.scores.performance} | ${r.scores.accessibility} | ${
          r.scores["best-practices"]
        } | ${r.scores.seo} | ${Math.round(r.lcp)} | ${Math.round(r.tbt)} | ${r.cls.toFixed(3)} | ${
          r.load.toFixed(2)
        } |`
      ),
    ].join("\n");
    console.log("\n" + table + "\n");
    tables.push(table);
    if (!only) await writeTables(tables);
  }
} finally {
  await server.close();
}

if (failures.length) {
  console.error("Below the floors:\n" + failures.join("\n"));
  Deno.exit(1);
}
