import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { acceptsGzip, compileTemplate, fillTemplate, gzipTemplate, NONCE_SLOT } from "./html_template.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("html template: gzip output decompresses to the HTML with the nonce in every slot", async () => {
  const body = "<p>Olá, visitação — ação</p>".repeat(2000);
  const html = `<html><head><script nonce="${NONCE_SLOT}">1</script></head><body>${body}` +
    `<script nonce="${NONCE_SLOT}">2</script></body></html>`;
  const t = compileTemplate(html);
  assert.equal(t.segments.length, 3);
  for (const nonce of ["AAAAAAAAAAAAAAAAAAAAAA==", "q1w2e3r4t5y6u7i8o9p0aa==", ""]) {
    const expected = html.replaceAll(NONCE_SLOT, nonce);
    const gz = gzipTemplate(t, nonce);
    assert.equal(decode(gunzipSync(gz)), expected); // gunzip checks the CRC-32 and the length
    assert.equal(decode(fillTemplate(t, nonce)), expected);
    // Also through the Web decoder browsers-side code would use.
    const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
    assert.equal(await new Response(stream).text(), expected);
    assert.ok(gz.byteLength < new TextEncoder().encode(expected).byteLength / 10);
  }
});

Deno.test("html template: the CRC-32 from the nonce tables is right for any nonce of any length", () => {
  const html = `<script nonce="${NONCE_SLOT}"></script>${
    "<p>conteúdo</p>".repeat(500)
  }<i nonce="${NONCE_SLOT}">`;
  const t = compileTemplate(html);
  for (let i = 0; i < 60; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(i % 3 === 0 ? 16 : i % 3 === 1 ? 5 : 33));
    const nonce = btoa(String.fromCharCode(...bytes));
    // gunzip checks the trailer's CRC-32 and length and throws on a mismatch.
    assert.equal(decode(gunzipSync(gzipTemplate(t, nonce))), html.replaceAll(NONCE_SLOT, nonce));
  }
});

Deno.test("html template: HTML without slots is one segment and still valid gzip", () => {
  const t = compileTemplate("<html><body>sem scripts</body></html>");
  assert.equal(t.segments.length, 1);
  assert.equal(decode(gunzipSync(gzipTemplate(t, "abc"))), "<html><body>sem scripts</body></html>");
});

Deno.test("html template: Accept-Encoding gzip detection honours q=0 and the wildcard", () => {
  assert.equal(acceptsGzip("gzip, deflate, br, zstd"), true);
  assert.equal(acceptsGzip("br;q=1.0, gzip;q=0.8"), true);
  assert.equal(acceptsGzip("gzip;q=0"), false);
  assert.equal(acceptsGzip("*"), true);
  assert.equal(acceptsGzip("*;q=0"), false);
  assert.equal(acceptsGzip("br, *;q=0"), false);
  assert.equal(acceptsGzip("identity"), false);
  assert.equal(acceptsGzip(undefined), false);
});
