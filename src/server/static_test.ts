import assert from "node:assert/strict";
import { Hono } from "hono";
import { gzipSync } from "node:zlib";
import type { AppEnv } from "./env.ts";
import { serveStatic } from "./static.ts";

async function fixture() {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/assets`);
  const js = "console.log('hello world');".repeat(20);
  await Deno.writeTextFile(`${dir}/assets/app-ABCDEFGH.js`, js);
  await Deno.writeFile(`${dir}/assets/app-ABCDEFGH.js.gz`, gzipSync(new TextEncoder().encode(js)));
  await Deno.writeTextFile(`${dir}/assets/app-ABCDEFGH.js.map`, "{}");
  await Deno.writeTextFile(`${dir}/assets/manifest.json`, "{}");
  await Deno.writeTextFile(`${dir}/favicon.svg`, "<svg/>");
  await Deno.writeTextFile(`${dir}/.env`, "SECRET=1");
  const app = new Hono<AppEnv>();
  app.use("*", await serveStatic({ root: new URL(`file://${dir}/`) }));
  app.all("*", (c) => c.text("fallthrough", 404));
  return { app, dir };
}

Deno.test("static: hashed assets are immutable for a year, others revalidate", async () => {
  const { app, dir } = await fixture();
  const asset = await app.request("/assets/app-ABCDEFGH.js");
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
  const icon = await app.request("/favicon.svg");
  assert.equal(icon.headers.get("content-type"), "image/svg+xml");
  assert.equal(icon.headers.get("cache-control"), "public, max-age=0, must-revalidate");
  const again = await app.request("/favicon.svg", {
    headers: { "if-none-match": icon.headers.get("etag")! },
  });
  assert.equal(again.status, 304);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("static: precompressed variants are served when accepted", async () => {
  const { app, dir } = await fixture();
  const res = await app.request("/assets/app-ABCDEFGH.js", {
    headers: { "accept-encoding": "gzip, deflate" },
  });
  assert.equal(res.headers.get("content-encoding"), "gzip");
  assert.equal(res.headers.get("vary"), "accept-encoding");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("static: no traversal, dotfiles, source maps or manifest", async () => {
  const { app, dir } = await fixture();
  for (
    const path of [
      "/.env",
      "/assets/app-ABCDEFGH.js.map",
      "/assets/manifest.json",
      "/assets/../.env",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/assets/..%2f..%2fdeno.json",
      "/assets/app-ABCDEFGH.js.gz",
    ]
  ) {
    const res = await app.request(path);
    assert.equal(await res.text(), "fallthrough", path);
  }
  await Deno.remove(dir, { recursive: true });
});
