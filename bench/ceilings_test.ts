import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { appTest } from "../testing/app.ts";
import { addCeilings } from "./ceilings.ts";

appTest("bench ceilings: absent from the production app", async (t) => {
  const page = await t.request("/__bench/page", { headers: { "accept-encoding": "gzip" } });
  assert.equal(page.status, 404);
  assert.match(page.headers.get("content-type") ?? "", /text\/html/);
  await page.body?.cancel();
  const post = await t.postJson("/__bench/204", {});
  assert.notEqual(post.status, 204);
  await post.body?.cancel();
  assert.deepEqual(t.app.routes.filter((r) => r.path.startsWith("/__bench")), []);
});

appTest("bench ceilings: the bench's app serves the /pt-br bytes from memory and a bare 204", async (t) => {
  const page = await t.request("/__bench/page", { headers: { "accept-encoding": "gzip" } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /text\/html/);
  assert.equal(page.headers.get("content-encoding"), "gzip");
  const body = new Uint8Array(await page.arrayBuffer());
  assert.equal(page.headers.get("content-length"), String(body.byteLength));
  const html = new TextDecoder().decode(gunzipSync(body));
  assert.match(html, /^<!DOCTYPE html><html lang="pt-BR"/);
  const again = new Uint8Array(await (await t.request("/__bench/page")).arrayBuffer());
  assert.deepEqual(again, body);
  const post = await t.request("/__bench/204", { method: "POST" });
  assert.equal(post.status, 204);
  assert.equal(await post.text(), "");
}, { extend: addCeilings });
