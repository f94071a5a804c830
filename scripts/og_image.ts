// Regenerates the share images (1200x630, Open Graph / Twitter card), one per language, as
// static/og-image-{pt,en,es}.jpg: the brand, the home page's title and rating line and the trial line from
// the locales, set in the site's own font (Inter, embedded from the package the site serves), screenshotted
// in the system Chromium. Run after a rebrand or a copy change: `deno run -A scripts/og_image.ts`.
import { encodeBase64 } from "@oslojs/encoding";
import { getBrowser } from "../e2e/browser.ts";
import { SITE } from "../src/site.ts";
import { LANGS } from "../src/shared/languages.ts";
import { loadLocales } from "../src/server/locales.ts";
import { ogImagePath } from "../src/shared/og_image.ts";

const FONT = new URL(
  "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  import.meta.url,
);
const font = encodeBase64(await Deno.readFile(FONT));
const mark = await Deno.readTextFile(new URL("../static/favicon.svg", import.meta.url));

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function card(text: { title: string; rating: string; trial: string }): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  @font-face { font-family: "Inter Variable"; font-weight: 100 900; font-display: block;
    src: url(data:font/woff2;base64,${font}) format("woff2"); }
  body { margin: 0; width: 1200px; height: 630px; font-family: "Inter Variable", sans-serif;
    background: radial-gradient(700px 420px at 90% 10%, rgba(37,211,102,.35), transparent 70%),
    linear-gradient(135deg, #054d44, #111b21); color: #fff; display: flex; flex-direction: column;
    justify-content: center; padding: 0 90px; box-sizing: border-box; }
  .brand { display: flex; align-items: center; gap: 18px; font-size: 44px; font-weight: 800; letter-spacing: -.5px; }
  .brand svg { width: 64px; height: 64px; }
  h1 { font-size: 60px; line-height: 1.08; margin: 40px 0 28px; max-width: 980px; letter-spacing: -1.5px;
    font-weight: 800; }
  p { font-size: 28px; margin: 0; color: rgba(255,255,255,.9); font-weight: 500; }
  .chip { display: inline-block; margin-top: 40px; background: rgba(255,255,255,.12);
    border: 1px solid rgba(255,255,255,.25); border-radius: 999px; padding: 12px 28px; font-size: 26px;
    font-weight: 600; align-self: flex-start; }
  .star { color: #f6c453; }
</style></head><body>
  <div class="brand">${mark}${escape(SITE.brand)}</div>
  <h1>${escape(text.title)}</h1>
  <p><span class="star">★</span> ${escape(text.rating)}</p>
  <span class="chip">${escape(text.trial)}</span>
</body></html>`;
}

const locales = await loadLocales();
const browser = await getBrowser();
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
for (const lang of LANGS) {
  const home = locales[lang].home as {
    meta: { title: string };
    hero: { badge: string; trial: string };
  };
  await page.setContent(card({ title: home.meta.title, rating: home.hero.badge, trial: home.hero.trial }));
  await page.evaluate(() => document.fonts.ready);
  // Fails loudly rather than writing an image set in a fallback font.
  const inter = await page.evaluate(() =>
    [...document.fonts].some((f) => f.family.includes("Inter") && f.status === "loaded")
  );
  if (!inter) throw new Error("the site's font did not load");
  const out = new URL(`../static${ogImagePath(lang)}`, import.meta.url);
  await page.screenshot({ path: out.pathname, type: "jpeg", quality: 88 });
  console.log(`wrote static${ogImagePath(lang)}`);
}
await browser.close();
