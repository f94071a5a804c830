import type { Context, MiddlewareHandler } from "hono";
import { extname } from "node:path";
import type { AppEnv } from "./env.ts";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
};
const COMPRESSIBLE = new Set([".js", ".css", ".json", ".webmanifest", ".svg", ".txt", ".xml"]);

interface StaticFile {
  body: Uint8Array;
  br?: Uint8Array;
  gzip?: Uint8Array;
  type: string;
  etag: string;
  immutable: boolean;
}

/** Walks `root` once; dotfiles, source maps and the manifest are never served. */
async function indexFiles(root: URL): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  async function walk(dir: URL, prefix: string) {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.startsWith(".")) continue;
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      const path = `${prefix}/${entry.name}`;
      if (entry.isDirectory) await walk(url, path);
      else if (entry.isFile) {
        const ext = extname(entry.name);
        if (ext === ".map" || ext === ".gz" || ext === ".br" || path === "/assets/manifest.json") continue;
        const type = TYPES[ext];
        if (!type) continue;
        const body = await Deno.readFile(url);
        const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
        const file: StaticFile = {
          body,
          type,
          etag: `"${Array.from(hash.slice(0, 12), (b) => b.toString(16).padStart(2, "0")).join("")}"`,
          immutable: path.startsWith("/assets/") && /-[A-Z0-9]{8,}\.\w+$/.test(entry.name),
        };
        if (COMPRESSIBLE.has(ext)) {
          file.br = await Deno.readFile(new URL(entry.name + ".br", dir)).catch(() => undefined);
          file.gzip = await Deno.readFile(new URL(entry.name + ".gz", dir)).catch(() => undefined);
        }
        files.set(path, file);
      }
    }
  }
  await walk(root, "");
  return files;
}

export interface StaticOptions {
  /** Directory to serve; default `static/` beside the source. */
  root?: URL;
}

/**
 * Serves files from `static/` out of memory: only paths found at start exist, so no traversal is
 * possible. Hashed assets are immutable for a year; other files revalidate by ETag. Precompressed
 * brotli/gzip variants (written by build.ts) are used when the client accepts them.
 */
export async function serveStatic(options: StaticOptions = {}): Promise<MiddlewareHandler<AppEnv>> {
  const files = await indexFiles(options.root ?? new URL("../../static/", import.meta.url));
  return function staticMiddleware(c, next) {
    const file = c.req.method === "GET" || c.req.method === "HEAD" ? files.get(c.req.path) : undefined;
    return file ? Promise.resolve(fileResponse(c, file)) : next();
  };
}

/** The answer for one known file: 304 when the client has it, else the best encoding it accepts. */
function fileResponse(c: Context<AppEnv>, file: StaticFile): Response {
  const headers = new Headers({
    "content-type": file.type,
    "etag": file.etag,
    "cache-control": file.immutable
      ? "public, max-age=31536000, immutable"
      : "public, max-age=0, must-revalidate",
  });
  if (file.br || file.gzip) headers.set("vary", "accept-encoding");
  if (c.req.header("if-none-match") === file.etag) return new Response(null, { status: 304, headers });
  const accept = c.req.header("accept-encoding") ?? "";
  let body = file.body;
  if (file.br && /\bbr\b/.test(accept)) {
    body = file.br;
    headers.set("content-encoding", "br");
  } else if (file.gzip && /\bgzip\b/.test(accept)) {
    body = file.gzip;
    headers.set("content-encoding", "gzip");
  }
  headers.set("content-length", String(body.byteLength));
  return new Response(c.req.method === "HEAD" ? null : body as Uint8Array<ArrayBuffer>, { headers });
}
