import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { appTest } from "../../testing/app.ts";

const GZIP = { "accept-encoding": "gzip, deflate, br" };

/** The response's CSP, its body decoded, and checks on the framing headers. */
async function page(t: Parameters<Parameters<typeof appTest>[1]>[0], path: string, headers: HeadersInit) {
  const res = await t.request(path, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.headers.get("content-length"), String(bytes.byteLength), path);
  assert.match(res.headers.get("vary") ?? "", /accept-encoding/i, path);
  assert.equal(res.headers.get("etag"), null, "no validator: a new build's page is never taken for the old");
  const gzip = res.headers.get("content-encoding") === "gzip";
  const html = new TextDecoder().decode(gzip ? gunzipSync(bytes) : bytes);
  return { res, bytes, gzip, html, csp: res.headers.get("content-security-policy")! };
}

appTest(
  "page cache: two gzip answers are the same bytes, compressed once, with the same policy",
  async (t) => {
    const a = await page(t, "/pt-br", GZIP);
    const b = await page(t, "/pt-br", GZIP);
    assert.equal(a.res.status, 200);
    assert.match(a.res.headers.get("content-type") ?? "", /text\/html/);
    assert.ok(a.gzip && b.gzip);
    assert.deepEqual(a.bytes, b.bytes);
    assert.equal(a.csp, b.csp);
    assert.ok(!a.html.includes("nonce="), "no script carries a nonce");
    // Without gzip in Accept-Encoding: the same HTML, uncompressed (or deflated by the compress middleware).
    const plain = await page(t, "/pt-br", { "accept-encoding": "identity" });
    assert.equal(plain.gzip, false);
    assert.equal(plain.res.headers.get("content-encoding"), null);
    assert.equal(plain.html, a.html);
    assert.equal(plain.csp, a.csp);
  },
);

appTest("page cache: the 404 page and other languages are cached apart, with their status", async (t) => {
  const missing = await page(t, "/pt-br/nao-existe", GZIP);
  assert.equal(missing.res.status, 404);
  assert.match(missing.html, /<html lang="pt-BR"/);
  const en = await page(t, "/en", GZIP);
  assert.equal(en.res.status, 200);
  assert.match(en.html, /<html lang="en"/);
  const pt = await page(t, "/pt-br", GZIP);
  assert.match(pt.html, /<html lang="pt-BR"/);
  const head = await t.request("/en", { method: "HEAD", headers: GZIP });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});
