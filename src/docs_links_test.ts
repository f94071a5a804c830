// The repository explains itself: a comment or a doc points to a page of `docs/` (and, as
// "docs/PRODUCT.md, _Lead modal_", to a heading of it), never to a document the repository does not have.
// This reads every source, test, script and doc file and fails on a pointer to a missing `docs/` page or
// heading, and on the words that used to point outside ("spec section N", "the spec's", the architecture
// notes), naming the file and line.
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
const SELF = "src/docs_links_test.ts";

/** Words that name a document outside the repository (written so this file does not match itself). */
const OUTSIDE: { pattern: RegExp; what: string }[] = [
  { pattern: /\bspec(?:s|ification)?\s+(?:sections?|§)/i, what: "a section of an outside specification" },
  { pattern: /\bthe spec\b(?!ial)|\bspec's\b|\s\(spec\)/i, what: "an outside specification" },
  { pattern: new RegExp("\\bARCHITEC" + "TURE\\b"), what: "an outside architecture document" },
];

/** `docs/NAME.md`, optionally followed by `, _Heading_` (or ` _Heading_`). */
const DOC_POINTER = /\bdocs\/([\w.-]+\.md)(?:,? _([^_\n]+)_)?/g;
/** A relative markdown link inside docs/: `[text](NAME.md)` or `(NAME.md#anchor)`. */
const DOC_LINK = /\]\(([\w.-]+\.md)(?:#[\w-]*)?\)/g;

export interface Docs {
  /** Page name (`PRODUCT.md`) → its headings' texts. */
  headings: Map<string, Set<string>>;
}

export function headingsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) out.add(match[1]);
  return out;
}

/** The problems of one file's text, as "file:line: what". */
export function problems(file: string, text: string, docs: Docs): string[] {
  const out: string[] = [];
  const inDocs = file.startsWith("docs/");
  text.split("\n").forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    for (const { pattern, what } of OUTSIDE) {
      if (pattern.test(line)) out.push(`${where}: names ${what}: ${line.trim()}`);
    }
    for (const match of line.matchAll(DOC_POINTER)) {
      const [, page, heading] = match;
      const headings = docs.headings.get(page);
      if (!headings) out.push(`${where}: docs/${page} does not exist`);
      else if (heading !== undefined && !headings.has(heading)) {
        out.push(`${where}: docs/${page} has no heading "${heading}"`);
      }
    }
    if (inDocs) {
      for (const match of line.matchAll(DOC_LINK)) {
        if (!docs.headings.has(match[1])) out.push(`${where}: link to ${match[1]}, not in docs/`);
      }
    }
  });
  return out;
}

async function readDocs(): Promise<Docs> {
  const headings = new Map<string, Set<string>>();
  for await (const entry of Deno.readDir(join(ROOT, "docs"))) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      headings.set(entry.name, headingsOf(await Deno.readTextFile(join(ROOT, "docs", entry.name))));
    }
  }
  return { headings };
}

async function readTexts(): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.(ts|tsx|js|cjs|mjs|css|md|sql|sh)$/.test(entry.name) && path !== SELF) {
        texts.set(path, await Deno.readTextFile(join(ROOT, path)));
      }
    }
  };
  for (const dir of ["src", "e2e", "testing", "bench", "scripts", "docs", "migrations"]) await walk(dir);
  texts.set("README.md", await Deno.readTextFile(join(ROOT, "README.md")));
  return texts;
}

Deno.test("docs links: every pointer names a docs/ page and heading that exist, none an outside document", async () => {
  const docs = await readDocs();
  assert.ok(docs.headings.get("PRODUCT.md")?.has("Lead modal"), "docs/PRODUCT.md and its headings are read");
  const texts = await readTexts();
  assert.ok(texts.has("src/ui/admin/api.ts") && texts.has("README.md"), "sources and the README are read");
  const found = [...texts].flatMap(([file, text]) => problems(file, text, docs));
  assert.deepEqual(found, []);
});

Deno.test("docs links: the checker fires on each kind of bad pointer and passes good ones", () => {
  const docs: Docs = { headings: new Map([["PRODUCT.md", new Set(["Lead modal", "Timings"])]]) };
  const source = [
    "// The lead form's rules (docs/PRODUCT.md, _Lead modal_).",
    "/** Delays: docs/PRODUCT.md _Timings_; formulas: see docs/PRODUCT.md. */",
    "// Beyond the specialist's price: fine.",
    "const spec = jobSpec; // a variable called spec is fine",
    "// Validation keys (spec section 5).",
    "/** As the spec's catalogue words it. */",
    "// Remembered in local storage (spec) and a cookie.",
    `// (${"ARCHITEC" + "TURE"} "Headers")`,
    "// See docs/MISSING.md for the design.",
    "// See docs/PRODUCT.md, _Dashboard_.",
  ].join("\n");
  assert.deepEqual(problems("src/x.ts", source, docs), [
    "src/x.ts:5: names a section of an outside specification: // Validation keys (spec section 5).",
    "src/x.ts:6: names an outside specification: /** As the spec's catalogue words it. */",
    "src/x.ts:7: names an outside specification: // Remembered in local storage (spec) and a cookie.",
    `src/x.ts:8: names an outside architecture document: // (${"ARCHITEC" + "TURE"} "Headers")`,
    "src/x.ts:9: docs/MISSING.md does not exist",
    'src/x.ts:10: docs/PRODUCT.md has no heading "Dashboard"',
  ]);
  assert.deepEqual(problems("docs/A.md", "See [metrics](METRICS.md) and [it](PRODUCT.md#timings).", docs), [
    "docs/A.md:1: link to METRICS.md, not in docs/",
  ]);
});
