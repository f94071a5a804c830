/** The client build's manifest: which hashed files each browser entry needs. Written by build.ts. */
export interface Manifest {
  /** The build's version (build.ts: APP_VERSION, `git describe`, or "dev"). */
  version?: string;
  /** Entry name (a page id, "admin" or "styles") -> its files. */
  entries: Record<string, { js?: string; css: string[]; imports: string[]; fonts?: string[] }>;
}

export interface Assets {
  /** Script, modulepreloads and stylesheets for an entry (URLs under /assets/). */
  entry(name: string): { js?: string; css: string[]; imports: string[]; fonts?: string[] };
  /**
   * The text of these stylesheets, joined, to inline in a page (public pages: no render-blocking request);
   * undefined when one is not in the build.
   */
  inlineCss(urls: string[]): string | undefined;
}

export const ASSETS_DIR = new URL("../../static/assets/", import.meta.url);

/** Reads `static/assets/manifest.json`; fails with a hint when the client was never built. */
export async function loadAssets(dir: URL = ASSETS_DIR): Promise<Assets> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(new URL("manifest.json", dir)));
  } catch (error) {
    throw new Error(`The client build is missing (${dir.pathname}manifest.json): run \`deno task build\`.`, {
      cause: error,
    });
  }
  // Read once: a few tens of kilobytes, the same for every page.
  const css = new Map<string, string>();
  for (const entry of Object.values(manifest.entries)) {
    for (const url of entry.css) {
      const file = new URL(url.replace(/^\/assets\//, ""), dir);
      const text = await Deno.readTextFile(file).catch(() => undefined);
      // The source-map comment points next to the file; inlined, it would point under the page's path.
      if (text !== undefined) css.set(url, text.replace(/\/\*# sourceMappingURL=.*?\*\/\s*$/, "").trimEnd());
    }
  }
  return {
    entry: (name) => manifest.entries[name] ?? { css: [], imports: [] },
    inlineCss: (urls) => {
      const texts = urls.map((u) => css.get(u));
      return texts.every((t) => t !== undefined) ? texts.join("\n") : undefined;
    },
  };
}

/** The version the client build recorded (build.ts), "dev" without one. */
export async function readBuildVersion(dir: URL = ASSETS_DIR): Promise<string> {
  try {
    const manifest: Manifest = JSON.parse(await Deno.readTextFile(new URL("manifest.json", dir)));
    return typeof manifest.version === "string" && manifest.version ? manifest.version : "dev";
  } catch {
    return "dev";
  }
}
