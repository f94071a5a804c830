// The language switch keeps the visit's query string without JavaScript: the server writes it into the
// switch's links (src/server/render.tsx, QUERY_SLOT in src/shared/routes.ts), escaped, gzip or not.
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { appTest } from "../../testing/app.ts";
import { QUERY_SLOT } from "../shared/routes.ts";

async function html(t: Parameters<Parameters<typeof appTest>[1]>[0], path: string, gzip: boolean) {
  const res = await t.request(path, { headers: { "accept-encoding": gzip ? "gzip" : "identity" } });
  assert.equal(res.status, 200, path);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.headers.get("content-length"), String(bytes.byteLength), path);
  assert.equal(res.headers.get("content-encoding") === "gzip", gzip, path);
  const text = new TextDecoder().decode(gzip ? gunzipSync(bytes) : bytes);
  return { text, csp: res.headers.get("content-security-policy")! };
}

/** The hrefs of the language switch's links, in order. */
function switchLinks(text: string): string[] {
  return [...text.matchAll(/<a href="([^"]*)" hrefLang="[^"]*" lang="[^"]*"[^>]*data-lang=/g)].map((m) =>
    m[1]
  );
}

appTest(
  "language switch: the links carry the request's query string, escaped, under the page's own policy",
  async (t) => {
    const cached = await html(t, "/en/clientes", true);
    for (const gzip of [true, false]) {
      const { text, csp } = await html(t, "/en/clientes?utm_source=meta&utm_campaign=nov", gzip);
      assert.deepEqual(switchLinks(text), [
        "/pt-br/clientes?utm_source=meta&amp;utm_campaign=nov",
        "/en/clientes?utm_source=meta&amp;utm_campaign=nov",
        "/es/clientes?utm_source=meta&amp;utm_campaign=nov",
      ]);
      assert.ok(!text.includes(QUERY_SLOT), "no slot left");
      // The query only goes into links: the inline scripts, and so their hashes, are the cached page's.
      assert.equal(csp, cached.csp);
      assert.match(csp, /script-src 'sha256-/);
    }
    const hostile = await html(t, `/pt-br?a="><script>x</script>&b='`, true);
    assert.ok(!hostile.text.includes("<script>x"), "the query cannot open a tag");
    assert.equal(switchLinks(hostile.text).length, 3);
  },
);

appTest("language switch: without a query the links are the plain paths (the cached page)", async (t) => {
  const { text } = await html(t, "/pt-br/termos-de-uso", true);
  assert.deepEqual(switchLinks(text), [
    "/pt-br/termos-de-uso",
    "/en/terms-of-service",
    "/es/terminos-de-servicio",
  ]);
  assert.ok(!text.includes(QUERY_SLOT));
  // A query too long to copy is left out of the links; the page still answers.
  const long = await html(t, "/pt-br?x=" + "a".repeat(3000), false);
  assert.deepEqual(switchLinks(long.text), ["/pt-br", "/en", "/es"]);
});
