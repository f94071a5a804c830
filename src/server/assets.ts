/** The client build's manifest: which hashed files each browser entry needs. Written by build.ts. */
export interface Manifest {
  /** Entry name (a page id, "admin" or "styles") -> its files. */
  entries: Record<string, { js?: string; css: string[]; imports: string[]; fonts?: string[] }>;
}

export interface Assets {
  /** Script, modulepreloads and stylesheets for an entry (URLs under /assets/). */
  entry(name: string): { js?: string; css: string[]; imports: string[]; fonts?: string[] };
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
  return {
    entry: (name) => manifest.entries[name] ?? { css: [], imports: [] },
  };
}
