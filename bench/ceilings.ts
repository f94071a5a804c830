// Same-process ceilings for `deno task bench`, added by bench/server.ts (the production app never has them):
// what this server does when a route does no work of its own, so the bench reports ratios that hold on a
// noisy machine. Both answers are fixed; neither reads the request or the database.
import { Hono } from "hono";
import type { AppEnv } from "../src/server/env.ts";

interface Snapshot {
  body: Uint8Array<ArrayBuffer>;
  headers: [string, string][];
}

/**
 * `GET /__bench/page`: the bytes of one gzip `/pt-br` response, served from memory like a static file.
 * `POST /__bench/204`: a bare 204.
 */
export function benchCeilings(app: Hono<AppEnv>): Hono<AppEnv> {
  const bench = new Hono<AppEnv>();
  let snapshot: Promise<Snapshot> | undefined;
  bench.get("/__bench/page", async () => {
    snapshot ??= (async () => {
      const res = await app.request("/pt-br", {
        headers: { "accept-encoding": "gzip", "user-agent": "bench" },
      });
      const body = new Uint8Array(await res.arrayBuffer());
      const headers: [string, string][] = [
        ["content-type", res.headers.get("content-type") ?? "text/html; charset=utf-8"],
        ["content-length", String(body.byteLength)],
        ["cache-control", "public, max-age=0, must-revalidate"],
        ["vary", "accept-encoding"],
        ["etag", '"bench-page"'],
      ];
      const encoding = res.headers.get("content-encoding");
      if (encoding) headers.push(["content-encoding", encoding]);
      return { body, headers };
    })();
    const { body, headers } = await snapshot;
    return new Response(body, { headers });
  });
  bench.post("/__bench/204", (c) => c.body(null, 204));
  return bench;
}

/** The `extend` hook for `start` and `createApp`: mounts the ceilings before the catch-alls. */
export function addCeilings(app: Hono<AppEnv>): void {
  app.route("/", benchCeilings(app));
}
