// Regenerates the site's icons from the brand mark in static/favicon.svg (the logo's mark): favicon.ico
// (16, 32 and 48 px PNGs in one ICO), apple-touch-icon.png (180 px, full bleed: iOS rounds the corners
// itself) and the web app manifest's icons (192 and 512 px, and a 512 px maskable one whose mark sits in
// the central safe zone). Rendered by the system Chromium. Run after a rebrand: `deno run -A scripts/icons.ts`.
import { getBrowser } from "../e2e/browser.ts";

const STATIC = new URL("../static/", import.meta.url);
const mark = await Deno.readTextFile(new URL("favicon.svg", STATIC));
// The mark's own drawing without its rounded tile, for the full-bleed variants.
const inner = mark.replace(/<svg[^>]*>|<\/svg>|<rect[^>]*\/>/g, "");
const tile = (mark.match(/<rect[^>]*fill="([^"]+)"/) ?? [])[1] ?? "#075e54";

/** An SVG of the mark on a full square tile, the mark scaled to `scale` of the side. */
function fullBleed(scale: number): string {
  const offset = (32 - 32 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${tile}"/>` +
    `<g transform="translate(${offset} ${offset}) scale(${scale})">${inner}</g></svg>`;
}

const browser = await getBrowser();
const page = await browser.newPage();

async function png(svg: string, size: number): Promise<Uint8Array> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">` +
      svg.replace("<svg ", `<svg width="${size}" height="${size}" style="display:block" `) + `</body></html>`,
  );
  return new Uint8Array(await page.screenshot({ type: "png", omitBackground: true }));
}

/** An ICO file holding PNG images (supported by every browser since Windows Vista's format change). */
function ico(images: { size: number; data: Uint8Array }[]): Uint8Array {
  const header = 6 + 16 * images.length;
  const out = new Uint8Array(header + images.reduce((n, i) => n + i.data.byteLength, 0));
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, images.length, true);
  let at = header;
  images.forEach((image, i) => {
    const entry = 6 + 16 * i;
    out[entry] = image.size % 256; // 0 means 256
    out[entry + 1] = image.size % 256;
    view.setUint16(entry + 4, 1, true); // colour planes
    view.setUint16(entry + 6, 32, true); // bits per pixel
    view.setUint32(entry + 8, image.data.byteLength, true);
    view.setUint32(entry + 12, at, true);
    out.set(image.data, at);
    at += image.data.byteLength;
  });
  return out;
}

const write = (name: string, data: Uint8Array) => Deno.writeFile(new URL(name, STATIC), data);
const favicon = [];
for (const size of [16, 32, 48]) favicon.push({ size, data: await png(mark, size) });
await write("favicon.ico", ico(favicon));
await write("apple-touch-icon.png", await png(fullBleed(0.8), 180));
await write("icon-192.png", await png(mark, 192));
await write("icon-512.png", await png(mark, 512));
await write("icon-maskable-512.png", await png(fullBleed(0.6), 512));
await browser.close();
console.log(
  "wrote static/favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png, icon-maskable-512.png",
);
