import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { acceptsGzip, inlineScriptHashes, staticPage } from "./static_page.ts";

const sha256 = async (text: string) =>
  `'sha256-${
    btoa(
      String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
      ),
    )
  }'`;

Deno.test("static page: the bytes and their gzip are the HTML, and the hashes name the scripts that run", async () => {
  const html = `<!DOCTYPE html><html><head><script>(function(){ç})()</script>` +
    `<script type="application/ld+json">{"a":1}</script></head><body><p>olá</p>` +
    `<script id="page-data" type="application/json">{"b":2}</script><script src="/x.js"></script>` +
    `<script>import("/assets/site.js")</script><script>import("/assets/site.js")</script></body></html>`;
  const page = staticPage(html);
  assert.equal(new TextDecoder().decode(page.html), html);
  assert.equal(new TextDecoder().decode(gunzipSync(page.gzip)), html);
  assert.equal(
    page.scriptHashes,
    [await sha256("(function(){ç})()"), await sha256('import("/assets/site.js")')].join(" "),
  );
  assert.deepEqual(inlineScriptHashes("<p>sem scripts</p>"), []);
});

Deno.test("static page: Accept-Encoding gzip detection honours q=0 and the wildcard", () => {
  assert.equal(acceptsGzip("gzip, deflate, br, zstd"), true);
  assert.equal(acceptsGzip("br;q=1.0, gzip;q=0.8"), true);
  assert.equal(acceptsGzip("gzip;q=0"), false);
  assert.equal(acceptsGzip("*"), true);
  assert.equal(acceptsGzip("*;q=0"), false);
  assert.equal(acceptsGzip("br, *;q=0"), false);
  assert.equal(acceptsGzip("identity"), false);
  assert.equal(acceptsGzip(undefined), false);
});
