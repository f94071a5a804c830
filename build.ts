// Bundles the browser entries with esbuild: minified, code-split ES modules with hashed names, a manifest
// the server reads, and brotli/gzip copies of text files. Source maps stay out of what the server serves.
import * as esbuild from "esbuild";
import { gzipAsync as zopfliGzip } from "@gfx/zopfli";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = new URL("./", import.meta.url);
const outdir = new URL("static/assets/", root);
const entriesDir = new URL("src/bundles/entries/", root);

export interface BuildResult {
  files: number;
  bytes: number;
}

/**
 * True when the build output is older than any source it depends on, this file included (used by `deno task
 * start` and `deno task test`).
 */
export async function needsBuild(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(new URL("manifest.json", outdir))).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  for (const dir of ["src/", "locales/"]) {
    if (await newerThan(new URL(dir, root), built)) return true;
  }
  for (const file of ["deno.json", "build.ts"]) {
    if ((await Deno.stat(new URL(file, root))).mtime!.getTime() > built) return true;
  }
  return false;
}

async function newerThan(dir: URL, time: number): Promise<boolean> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory ? await newerThan(url, time) : (await Deno.stat(url)).mtime!.getTime() > time) {
      return true;
    }
  }
  return false;
}

/**
 * Stylesheets import npm packages (the self-hosted font) that no TypeScript module imports, so Deno
 * has not necessarily put them in node_modules yet: install the import map once when one is missing.
 */
async function ensureCssPackages(): Promise<void> {
  const font = new URL("node_modules/@fontsource-variable/inter/package.json", root);
  if (await Deno.stat(font).then(() => true, () => false)) return;
  const { code } = await new Deno.Command(Deno.execPath(), { args: ["install"], cwd: root.pathname })
    .output();
  if (code !== 0) throw new Error("`deno install` failed: the font package could not be installed");
}

/**
 * This build's version, shown in the start log, /healthz and the dashboard: APP_VERSION when set (a Docker
 * build has no .git: `--build-arg APP_VERSION=v1.2.0`), else `git describe --tags --always --dirty` (the
 * release tag, or the tag plus commits since and the commit, "-dirty" with uncommitted changes), else "dev".
 */
export async function buildVersion(): Promise<string> {
  const fromEnv = Deno.env.get("APP_VERSION")?.trim();
  if (fromEnv) return fromEnv;
  try {
    const { code, stdout } = await new Deno.Command("git", {
      args: ["describe", "--tags", "--always", "--dirty"],
      cwd: root.pathname,
      stdout: "piped",
      stderr: "null",
    }).output();
    const version = new TextDecoder().decode(stdout).trim();
    if (code === 0 && version) return version;
  } catch {
    // No git on this machine.
  }
  return "dev";
}

/**
 * Writes the current version into the manifest when it changed since the build (`deno task start` after a
 * commit or a tag that left the client's sources as they were); false when there is no build yet.
 */
export async function stampVersion(): Promise<boolean> {
  const file = new URL("manifest.json", outdir);
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(await Deno.readTextFile(file));
  } catch {
    return false;
  }
  const version = await buildVersion();
  // Without git or APP_VERSION (a copied build), the version recorded when it was built stays.
  if (version === "dev" && typeof manifest.version === "string") return true;
  if (manifest.version !== version) {
    await Deno.writeTextFile(file, JSON.stringify({ ...manifest, version }, null, 2));
  }
  return true;
}

/** Builds everything into static/assets/ and returns what it wrote. */
export async function build(): Promise<BuildResult> {
  await ensureCssPackages();
  await Deno.remove(outdir, { recursive: true }).catch(() => {});
  const entryPoints: Record<string, string> = {};
  for await (const entry of Deno.readDir(entriesDir)) {
    if (/\.tsx?$/.test(entry.name)) {
      entryPoints[entry.name.replace(/\.tsx?$/, "")] = `src/bundles/entries/${entry.name}`;
    }
  }
  entryPoints.styles = "src/ui/styles.css";

  const result = await esbuild.build({
    absWorkingDir: root.pathname,
    entryPoints,
    outdir: outdir.pathname,
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    sourcemap: "linked",
    sourcesContent: false,
    target: ["es2022", "chrome111", "firefox111", "safari16"],
    jsx: "automatic",
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    // Absolute URLs in the CSS (fonts, images): public pages inline the stylesheet in their HTML.
    publicPath: "/assets/",
    loader: { ".woff2": "file", ".woff": "file", ".svg": "file", ".png": "file", ".webp": "file" },
    define: { "process.env.NODE_ENV": '"production"' },
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  await esbuild.stop();

  const manifest: {
    version: string;
    entries: Record<string, { js?: string; css: string[]; imports: string[]; fonts?: string[] }>;
  } = {
    version: await buildVersion(),
    entries: {},
  };
  const outputs = result.metafile.outputs;
  const publicPath = (file: string) => "/assets/" + file.slice(file.lastIndexOf("static/assets/") + 14);
  for (const [file, output] of Object.entries(outputs)) {
    if (!output.entryPoint) continue;
    const name = Object.entries(entryPoints).find(([, path]) => path === output.entryPoint)?.[0];
    if (!name) continue;
    const css = output.cssBundle ? [publicPath(output.cssBundle)] : [];
    if (file.endsWith(".css")) {
      // The Latin subset of the body font is needed for the first paint: pages preload it.
      const fonts = Object.keys(outputs).filter((f) => /inter-latin-wght-normal-[A-Z0-9]+\.woff2$/.test(f));
      manifest.entries[name] = { css: [publicPath(file)], imports: [], fonts: fonts.map(publicPath) };
      continue;
    }
    const imports = new Set<string>();
    const visit = (f: string) => {
      for (const imp of outputs[f]?.imports ?? []) {
        if (imp.kind !== "import-statement" || imports.has(publicPath(imp.path))) continue;
        imports.add(publicPath(imp.path));
        visit(imp.path);
      }
    };
    visit(file);
    manifest.entries[name] = { js: publicPath(file), css, imports: [...imports] };
  }
  let bytes = 0;
  let files = 0;
  for await (const entry of Deno.readDir(outdir)) {
    if (!/\.(js|css|svg|json)$/.test(entry.name)) continue;
    const data = await Deno.readFile(new URL(entry.name, outdir));
    files++;
    bytes += data.byteLength;
    await Deno.writeFile(new URL(entry.name + ".gz", outdir), await gzip(data));
    await Deno.writeFile(
      new URL(entry.name + ".br", outdir),
      brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
  // Written last: a manifest means a whole build, so a build stopped half-way is redone (needsBuild).
  await Deno.writeTextFile(new URL("manifest.json", outdir), JSON.stringify(manifest, null, 2));
  return { files, bytes };
}

const zopfliCache = new URL("node_modules/.cache/zopfli/", root);

/**
 * gzip for clients without brotli. Files over 4 KiB go through Zopfli (about 4% smaller than zlib's best);
 * it is slow, so results are kept by content hash and a rebuild of unchanged files costs nothing.
 */
async function gzip(data: Uint8Array): Promise<Uint8Array> {
  if (data.byteLength < 4096) return gzipSync(data, { level: 9 });
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
  const cached = new URL(
    Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("") + ".gz",
    zopfliCache,
  );
  try {
    return await Deno.readFile(cached);
  } catch {
    const out = await zopfliGzip(data, { numiterations: 15 });
    await Deno.mkdir(zopfliCache, { recursive: true });
    await Deno.writeFile(cached, out);
    return out;
  }
}

if (import.meta.main) {
  const started = performance.now();
  const { files, bytes } = await build();
  console.log(
    `built ${files} files (${(bytes / 1024).toFixed(1)} KiB) in ${
      Math.round(performance.now() - started)
    } ms`,
  );
}
