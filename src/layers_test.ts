// Which way imports may point. Reads every module under src/ and scripts/, takes its import specifiers
// (static, re-exports, side-effect and dynamic imports, type-only ones too: a type is a dependency as well)
// and fails on any import a rule below forbids, naming the file, the import and the rule.
//
// | rule                   | modules                                   | may not import                      |
// | ---------------------- | ----------------------------------------- | ----------------------------------- |
// | no-test-code           | every production module (src/, scripts/)  | testing/, bench/                    |
// | services-below-http    | src/services/, src/db/                    | src/server/, src/routes/            |
// | db-below-services      | src/db/                                   | src/services/                       |
// | core-is-the-floor      | src/core/                                 | anything of ours outside src/core/  |
// | shared-on-core         | src/shared/                               | ours outside src/shared/, src/core/ |
// | browser-logic-below-ui | src/browser_logic/                        | src/ui/, src/bundles/               |
// | ui-below-bundles       | src/ui/                                   | src/bundles/                        |
// | browser-no-server      | src/ui/, src/bundles/, src/browser_logic/ | src/server/, src/db/, src/services/ |
// | routes-via-services    | src/routes/                               | src/db/                             |
//
// A test (`*_test.ts`) is not a production module: it may import test support (testing/, bench/) and any
// layer it needs to drive the code under test (src/browser_logic/tracking_test.ts submits through
// ui/lead/lead_form.ts); the rules bind what `deno task start` and the browser bundles load. Developer scripts
// that build the test app on purpose are listed in DEV_TOOLS below, each with its reason.
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));

/** Scripts that are developer tools built on the test support, not something production runs. */
const DEV_TOOLS: Record<string, string> = {
  "scripts/routes.ts": "prints the route table of the test app over an empty in-memory database",
};

interface Rule {
  name: string;
  /** The importing module is bound by the rule. */
  applies(file: string): boolean;
  /** The imported module (repository-relative) breaks the rule. */
  forbids(target: string): boolean;
}

const under = (...dirs: string[]) => (path: string) => dirs.some((d) => path.startsWith(d));

export const RULES: Rule[] = [
  {
    name: "no-test-code",
    applies: (file) => !(file in DEV_TOOLS),
    forbids: under("testing/", "bench/"),
  },
  {
    name: "services-below-http",
    applies: under("src/services/", "src/db/"),
    forbids: under("src/server/", "src/routes/"),
  },
  { name: "db-below-services", applies: under("src/db/"), forbids: under("src/services/") },
  {
    name: "core-is-the-floor",
    applies: under("src/core/"),
    forbids: (target) => !target.startsWith("src/core/"),
  },
  {
    name: "shared-on-core",
    applies: under("src/shared/"),
    forbids: (target) => !under("src/shared/", "src/core/")(target),
  },
  {
    name: "browser-logic-below-ui",
    applies: under("src/browser_logic/"),
    forbids: under("src/ui/", "src/bundles/"),
  },
  { name: "ui-below-bundles", applies: under("src/ui/"), forbids: under("src/bundles/") },
  {
    name: "browser-no-server",
    applies: under("src/ui/", "src/bundles/", "src/browser_logic/"),
    forbids: under("src/server/", "src/db/", "src/services/"),
  },
  { name: "routes-via-services", applies: under("src/routes/"), forbids: under("src/db/") },
];

const STATIC_IMPORT = /^(?:import|export)\s+(?:type\s+)?[\w$*{}\s,]*?\s*from\s*["']([^"']+)["']/gm;
const SIDE_EFFECT_IMPORT = /^import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every import specifier of a module's source. */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const pattern of [STATIC_IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT]) {
    for (const match of source.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/** The repository-relative path a relative specifier names; null for packages, `node:` and URLs. */
function resolve(file: string, specifier: string): string | null {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
  return normalize(join(dirname(file), specifier));
}

const isTest = (file: string) => /_test\.tsx?$/.test(file);

/** The imports that break a rule, as "file: import 'x' (rule)". */
export function violations(modules: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, specifiers] of modules) {
    if (isTest(file)) continue;
    for (const specifier of specifiers) {
      const target = resolve(file, specifier);
      if (target === null || target.startsWith("..")) continue;
      for (const rule of RULES) {
        if (rule.applies(file) && rule.forbids(target)) {
          out.push(`${file}: import "${specifier}" (${rule.name})`);
        }
      }
    }
  }
  return out;
}

async function readModules(): Promise<Map<string, string[]>> {
  const modules = new Map<string, string[]>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.(ts|tsx)$/.test(entry.name)) {
        modules.set(path, importSpecifiers(await Deno.readTextFile(join(ROOT, path))));
      }
    }
  };
  await walk("src");
  await walk("scripts");
  return modules;
}

Deno.test("layers: every import points the way the layer table allows", async () => {
  const modules = await readModules();
  // The reader sees what it must: the entry's own imports, and the modules of every layer the rules name.
  assert.ok(modules.get("src/main.ts")?.includes("./app.ts"), "src/main.ts imports ./app.ts");
  for (
    const dir of ["core", "shared", "db", "services", "server", "routes", "browser_logic", "ui", "bundles"]
  ) {
    assert.ok(
      [...modules.keys()].some((f) => f.startsWith(`src/${dir}/`) && !isTest(f)),
      `modules in src/${dir}/`,
    );
  }
  for (const tool of Object.keys(DEV_TOOLS)) assert.ok(modules.has(tool), `${tool} (DEV_TOOLS) exists`);
  assert.deepEqual(violations(modules), []);
});

Deno.test("layers: the reader finds every kind of import, and each rule fires", () => {
  const source = [
    'import { a } from "../server/a.ts";',
    'import type {\n  B,\n  C,\n} from "../routes/b.ts";',
    'export { d } from "../../testing/d.ts";',
    'import "../bundles/e.ts";',
    'const f = await import("../../bench/f.ts");',
    'import * as g from "npm:zod";',
  ].join("\n");
  assert.deepEqual(importSpecifiers(source), [
    "../server/a.ts",
    "../routes/b.ts",
    "../../testing/d.ts",
    "npm:zod",
    "../bundles/e.ts",
    "../../bench/f.ts",
  ]);
  const bad = new Map<string, string[]>([
    ["src/services/x.ts", ["../server/a.ts", "../routes/b.ts", "../../testing/d.ts"]],
    ["src/db/x.ts", ["../services/a.ts"]],
    ["src/core/x.ts", ["../shared/a.ts", "./ok.ts"]],
    ["src/shared/x.ts", ["../services/a.ts", "../core/ok.ts", "./ok.ts"]],
    ["src/browser_logic/x.ts", ["../ui/a.ts", "../bundles/b.ts"]],
    ["src/ui/x.tsx", ["../bundles/a.ts", "../browser_logic/ok.ts"]],
    ["src/ui/admin/y.tsx", [
      "../../server/a.ts",
      "../../db/b.ts",
      "../../services/c.ts",
      "../../shared/ok.ts",
    ]],
    ["src/bundles/y.ts", ["../db/a.ts", "../ui/ok.tsx"]],
    ["src/browser_logic/y.ts", ["../services/a.ts", "../server/b.ts"]],
    ["src/routes/api/y.ts", ["../../db/a.ts", "../../services/ok.ts", "../../server/ok.ts"]],
    ["src/routes/y.ts", ["../db/migrate.ts"]],
    ["scripts/x.ts", ["../bench/a.ts"]],
    ["scripts/routes.ts", ["../testing/app.ts"]],
    ["src/ui/x_test.ts", ["../bundles/a.ts", "../../testing/app.ts"]],
  ]);
  assert.deepEqual(violations(bad), [
    'src/services/x.ts: import "../server/a.ts" (services-below-http)',
    'src/services/x.ts: import "../routes/b.ts" (services-below-http)',
    'src/services/x.ts: import "../../testing/d.ts" (no-test-code)',
    'src/db/x.ts: import "../services/a.ts" (db-below-services)',
    'src/core/x.ts: import "../shared/a.ts" (core-is-the-floor)',
    'src/shared/x.ts: import "../services/a.ts" (shared-on-core)',
    'src/browser_logic/x.ts: import "../ui/a.ts" (browser-logic-below-ui)',
    'src/browser_logic/x.ts: import "../bundles/b.ts" (browser-logic-below-ui)',
    'src/ui/x.tsx: import "../bundles/a.ts" (ui-below-bundles)',
    'src/ui/admin/y.tsx: import "../../server/a.ts" (browser-no-server)',
    'src/ui/admin/y.tsx: import "../../db/b.ts" (browser-no-server)',
    'src/ui/admin/y.tsx: import "../../services/c.ts" (browser-no-server)',
    'src/bundles/y.ts: import "../db/a.ts" (browser-no-server)',
    'src/browser_logic/y.ts: import "../services/a.ts" (browser-no-server)',
    'src/browser_logic/y.ts: import "../server/b.ts" (browser-no-server)',
    'src/routes/api/y.ts: import "../../db/a.ts" (routes-via-services)',
    'src/routes/y.ts: import "../db/migrate.ts" (routes-via-services)',
    'scripts/x.ts: import "../bench/a.ts" (no-test-code)',
  ]);
});
