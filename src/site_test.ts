import assert from "node:assert/strict";
import { SITE, type Video } from "./site.ts";

/** Width and height of a WebP (lossy, lossless or extended), from its first chunk. */
function webpSize(bytes: Uint8Array): [number, number] {
  const text = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  assert.equal(text(0, 4) + text(8, 12), "RIFFWEBP", "a WebP file");
  const chunk = text(12, 16);
  const u24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
  if (chunk === "VP8X") return [u24(24) + 1, u24(27) + 1];
  if (chunk === "VP8 ") {
    return [(bytes[26] | (bytes[27] << 8)) & 0x3fff, (bytes[28] | (bytes[29] << 8)) & 0x3fff];
  }
  if (chunk === "VP8L") {
    const bits = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
  }
  throw new Error(`unknown WebP chunk ${chunk}`);
}

Deno.test("site: every video thumbnail is a self-hosted WebP/AVIF under static/ with the size it declares", async () => {
  const videos: Video[] = Object.values(SITE.videos).flat();
  const withThumbnail = videos.filter((v) => v.thumbnail);
  assert.ok(withThumbnail.length >= 3, "the demo videos have posters");
  for (const { id, thumbnail } of withThumbnail) {
    const src = thumbnail!.src;
    assert.match(src, /^\/[\w/-]+\.(webp|avif)$/, `${id}: a path on this site in a modern format`);
    const bytes = await Deno.readFile(new URL(`../static${src}`, import.meta.url));
    if (src.endsWith(".webp")) {
      assert.deepEqual(webpSize(bytes), [thumbnail!.width, thumbnail!.height], `${id}: declared size`);
    } else assert.equal(String.fromCharCode(...bytes.slice(4, 12)), "ftypavif", `${id}: an AVIF file`);
    assert.ok(bytes.byteLength < 150_000, `${id}: light (${bytes.byteLength} bytes)`);
  }
});
