// Renders the customers page's marks (static/logos/*.svg, the sources) as WebP images beside them, at three
// times their 56 px display size, in the site's own typeface. An SVG shown as an image is a whole document
// for the browser to parse, lay out (with a system font chosen per machine) and paint on the main thread,
// 25 times on the customers page; a WebP is decoded off it. Run after changing a mark:
// `deno run -A scripts/customer_logos.ts`. A site owner's own logo can be any image `src/site.ts` points at.
import { encodeBase64 } from "@oslojs/encoding";
import { getBrowser } from "../e2e/browser.ts";
import { pngToWebp } from "./webp.ts";

const SIZE = 168; // 56 px at a device pixel ratio of 3
const LOGOS = new URL("../static/logos/", import.meta.url);
const font = await Deno.readFile(
  new URL("../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2", import.meta.url),
);
const fontFace = `@font-face{font-family:Inter;font-weight:100 900;src:url(data:font/woff2;base64,${
  encodeBase64(font)
}) format("woff2")}`;

const browser = await getBrowser();
const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
for await (const entry of Deno.readDir(LOGOS)) {
  if (!entry.name.endsWith(".svg")) continue;
  const svg = (await Deno.readTextFile(new URL(entry.name, LOGOS)))
    .replace(/<svg([^>]*?) width="\d+" height="\d+"/, `<svg$1 width="${SIZE}" height="${SIZE}"`);
  await page.setContent(
    `<!doctype html><style>${fontFace}body{margin:0}svg{display:block}</style><body>${svg}</body>`,
  );
  await page.evaluate(() => document.fonts.ready);
  const png = await page.locator("svg").screenshot({ type: "png", omitBackground: true });
  const bytes = await pngToWebp(page, png, 0.9);
  const name = entry.name.replace(/\.svg$/, ".webp");
  await Deno.writeFile(new URL(name, LOGOS), bytes);
  console.log(`wrote static/logos/${name} (${bytes.byteLength} bytes)`);
}
await browser.close();
