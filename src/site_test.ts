// One pricing story (issue 15): the Pipefy table, the pricing cards, the Enterprise box and the structured
// data's offers say the same prices and packages, in every language.
import assert from "node:assert/strict";
import { loadLocales } from "./server/locales.ts";
import { LANG_INFO, LANGS } from "./shared/languages.ts";
import { SITE, type Video } from "./site.ts";

Deno.test("site: the Pipefy table, the pricing cards and the structured data tell one pricing story", async () => {
  const locales = await loadLocales();
  assert.deepEqual([...SITE.structuredData.offerPrices], SITE.planTable.map((r) => r.price));
  assert.deepEqual(SITE.planTable.slice(0, 3).map((r) => r.key), SITE.plans.map((p) => p.key));
  for (const lang of LANGS) {
    const home = locales[lang].home as { pricing: Record<string, unknown> };
    const pipefy = locales[lang].pipefy as { plans: { names: Record<string, string> } };
    const cards = home.pricing.plans as Record<string, { name: string; price: string; messages: string }>;
    const count = new Intl.NumberFormat(LANG_INFO[lang].htmlLang, { useGrouping: "always" });
    const money = (n: number) => `R$ ${count.format(n)}`;
    for (const row of SITE.planTable) {
      const where = `${lang}: ${row.key}`;
      const card = cards[row.key];
      if (card) {
        assert.equal(card.price, money(row.price), `${where}: card price`);
        assert.ok(card.messages.startsWith(count.format(row.messages) + " "), `${where}: card package`);
        assert.equal(pipefy.plans.names[row.key], card.name, `${where}: same name in the table`);
      } else {
        // Enterprise: not a card, but offered (same price, same package) in the box under the cards.
        const box = home.pricing.specialistText as string;
        assert.ok(box.includes(money(row.price)), `${where}: price in the specialist box`);
        assert.ok(box.includes(count.format(row.messages)), `${where}: package in the specialist box`);
        assert.ok((home.pricing.specialistTitle as string).includes(pipefy.plans.names[row.key]), where);
      }
    }
  }
});

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
