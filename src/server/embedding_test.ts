// The single binary (`deno task compile`) embeds static/, locales/ and migrations/ and reads them at the
// paths import.meta.url gives. `deno compile` cannot run here (it downloads Deno's runtime), so these tests
// prove the same property offline: nothing is read relative to the working directory.
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { startServer } from "../../testing/server.ts";

const SRC = new URL("../", import.meta.url);
const ROOT = new URL("../../", import.meta.url);

/**
 * A file-system read whose path argument is a string literal not starting with `/`: relative to the working
 * directory (absolute system paths such as `/proc/self/limits` are not).
 */
const LITERAL_READ =
  /\b(?:Deno\.(?:readTextFile|readFile|readDir|open|stat|lstat|realPath)(?:Sync)?|readFileSync|readdirSync|createReadStream)\(\s*["'`](?!\/)/;

async function sourceFiles(dir: URL, out: URL[] = []): Promise<URL[]> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) await sourceFiles(url, out);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) out.push(url);
  }
  return out;
}

Deno.test("embedding: the literal-path check catches a read relative to the working directory", () => {
  assert.ok(LITERAL_READ.test(`await Deno.readTextFile("locales/pt/common.json")`));
  assert.ok(LITERAL_READ.test("Deno.readDir(`static/${name}`)"));
  assert.ok(LITERAL_READ.test(`readFileSync('migrations/00001_init.sql')`));
  assert.ok(!LITERAL_READ.test(`Deno.readTextFile(new URL("manifest.json", dir))`));
  assert.ok(!LITERAL_READ.test(`Deno.readFile(url)`));
  assert.ok(!LITERAL_READ.test(`Deno.readTextFile("/proc/self/limits")`));
});

Deno.test("embedding: no source file under src/ reads a file by a path relative to the working directory", async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles(SRC)) {
    const lines = (await Deno.readTextFile(file)).split("\n");
    lines.forEach((line, i) => {
      if (LITERAL_READ.test(line)) {
        offenders.push(`${relative(ROOT.pathname, file.pathname)}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offenders, [], "read through new URL(..., import.meta.url) instead");
});

Deno.test("embedding: every module that reads shipped files locates them from import.meta.url", async () => {
  const readers = {
    "server/static.ts": "static/",
    "server/locales.ts": "locales/",
    "server/assets.ts": "static/assets/",
    "db/migrate.ts": "migrations/",
  };
  for (const [file, dir] of Object.entries(readers)) {
    const text = await Deno.readTextFile(new URL(file, SRC));
    assert.ok(
      text.includes(`new URL("../../${dir}", import.meta.url)`),
      `${file} must locate ${dir} with new URL("../../${dir}", import.meta.url)`,
    );
  }
});

Deno.test({
  name: "embedding: the server started from another working directory serves a page, an asset and /readyz",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const manifest = JSON.parse(await Deno.readTextFile(new URL("static/assets/manifest.json", ROOT)));
    const asset: string = manifest.entries.site.js; // the bootstrap every public page loads
    assert.match(asset, /^\/assets\/.+\.js$/);
    const cwd = await Deno.makeTempDir({ prefix: "elsewhere_" });
    const server = await startServer({ cwd, env: { DATA_DIR: join(cwd, "data"), LOG_LEVEL: "warn" } });
    try {
      const page = await fetch(`${server.url}/pt-br`);
      assert.equal(page.status, 200, server.output());
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      assert.match(await page.text(), new RegExp(asset.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));

      const script = await fetch(`${server.url}${asset}`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get("content-type") ?? "", /javascript/);
      assert.ok((await script.arrayBuffer()).byteLength > 0);

      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200, server.output());
      assert.equal((await ready.json()).status, "ready");
      // The database went where DATA_DIR said, and nothing else was written into the working directory.
      assert.deepEqual([...Deno.readDirSync(cwd)].map((e) => e.name), ["data"]);
    } finally {
      assert.equal(await server.stop(), 0, server.output());
      await Deno.remove(cwd, { recursive: true });
    }
  },
});
