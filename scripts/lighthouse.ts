// `deno task lighthouse`: scores every public page in pt and en with Lighthouse (npm, run with Node, mobile
// preset, the system Chromium), prints a table, writes it to docs/PERFORMANCE.md and fails below the floors:
// performance >= 95, accessibility 100, best practices >= 95, SEO 100. Not part of `deno task test`.
import { build } from "../build.ts";
import { CHROME_ARGS, CHROME_PATH, serveApp } from "../e2e/browser.ts";
import { LANGS } from "../src/shared/languages.ts";
import { pagePath, PUBLIC_PAGES } from "../src/shared/routes.ts";

const LIGHTHOUSE = "lighthouse@12.8.2"; // 13.x needs Node >= 22
const FLOORS = { performance: 95, accessibility: 100, "best-practices": 95, seo: 100 } as const;
type Category = keyof typeof FLOORS;
const langs = LANGS.filter((l) => l !== "es"); // pt and en, as the issue asks; es shares every template

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

const loadBefore = Deno.loadavg()[0];
await build();
const server = await serveApp();
const rows: { path: string; scores: Record<Category, number>; lcp: number; tbt: number; cls: number }[] = [];
const failures: string[] = [];
try {
  for (const page of PUBLIC_PAGES) {
    for (const lang of langs) {
      const path = pagePath(page, lang);
      // Lighthouse now and then fails to record a trace (NO_NAVSTART); one more attempt settles it.
      let out = await lighthouse(server.baseUrl + path);
      if (out.code !== 0) out = await lighthouse(server.baseUrl + path);
      if (out.code !== 0) {
        failures.push(
          `${path}: lighthouse exited ${out.code}: ${new TextDecoder().decode(out.stderr).slice(-400)}`,
        );
        continue;
      }
      const report = JSON.parse(new TextDecoder().decode(out.stdout));
      const scores = Object.fromEntries(
        (Object.keys(FLOORS) as Category[]).map((c) => [c, Math.round(report.categories[c].score * 100)]),
      ) as Record<Category, number>;
      const audit = (id: string) => report.audits[id]?.numericValue ?? NaN;
      rows.push({
        path,
        scores,
        lcp: audit("largest-contentful-paint"),
        tbt: audit("total-blocking-time"),
        cls: audit("cumulative-layout-shift"),
      });
      for (const c of Object.keys(FLOORS) as Category[]) {
        if (scores[c] < FLOORS[c]) {
          const failed = Object.values(report.audits as Record<string, { score: number | null; id: string }>)
            .filter((a) => a.score !== null && a.score < 0.9).map((a) => a.id).slice(0, 8);
          failures.push(`${path}: ${c} ${scores[c]} < ${FLOORS[c]} (audits below 0.9: ${failed.join(", ")})`);
        }
      }
      console.log(`${path}: ${JSON.stringify(scores)}`);
    }
  }
} finally {
  await server.close();
}

const table = [
  "| page | performance | accessibility | best practices | SEO | LCP (ms) | TBT (ms) | CLS |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((r) =>
    `| \`${r.path}\` | ${r.scores.performance} | ${r.scores.accessibility} | ${
      r.scores["best-practices"]
    } | ${r.scores.seo} | ${Math.round(r.lcp)} | ${Math.round(r.tbt)} | ${r.cls.toFixed(3)} |`
  ),
].join("\n");
console.log("\n" + table + "\n");

// Only the Lighthouse section of docs/PERFORMANCE.md is rewritten (between its markers); the rest of the
// file (the \`deno task bench\` table, notes) is left alone.
const section = `<!-- lighthouse:start -->

Measured with \`deno task lighthouse\` (${LIGHTHOUSE}, mobile preset with simulated throttling, system
Chromium, the production build served by the app over an empty PGlite database) on ${
  new Date().toISOString().slice(0, 10)
}, load average before the run ${loadBefore.toFixed(2)}. Floors: performance >= 95, accessibility 100,
best practices >= 95, SEO 100.

${table}

<!-- lighthouse:end -->`;
const docFile = new URL("../docs/PERFORMANCE.md", import.meta.url);
const current = await Deno.readTextFile(docFile).catch(() =>
  "# Performance\n\n## Public pages: Lighthouse\n\n"
);
const markers = /<!-- lighthouse:start -->[\s\S]*<!-- lighthouse:end -->/;
await Deno.writeTextFile(
  docFile,
  markers.test(current)
    ? current.replace(markers, () => section)
    : current.trimEnd() + "\n\n" + section + "\n",
);
await new Deno.Command(Deno.execPath(), { args: ["fmt", docFile.pathname] }).output();
if (failures.length) {
  console.error("Below the floors:\n" + failures.join("\n"));
  Deno.exit(1);
}
