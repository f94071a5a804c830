// Full-page screenshots of every public page at phone (390 px) and desktop (1366 px) widths, for review:
// `deno run -A scripts/screenshots.ts [pt|en|es]` (pt by default) writes to docs/screenshots/ for pt and to
// docs/screenshots/<lang>/ for the others. Desktop shots are taken at half
// scale and long pages are cut into parts, to keep each file small.
import { build } from "../build.ts";
import { getBrowser, serveApp } from "../e2e/browser.ts";
import { pagePath, PUBLIC_PAGES } from "../src/shared/routes.ts";
import { isLang, LANG_INFO } from "../src/shared/languages.ts";

const lang = Deno.args[0] ?? "pt";
if (!isLang(lang)) throw new Error(`unknown language ${lang}: pt, en or es`);

await build();
const server = await serveApp();
const browser = await getBrowser();
const out = new URL(lang === "pt" ? "../docs/screenshots/" : `../docs/screenshots/${lang}/`, import.meta.url);
await Deno.mkdir(out, { recursive: true });
// Only this script's own pictures are replaced (the admin's live in the same folder).
for await (const entry of Deno.readDir(out)) {
  if (PUBLIC_PAGES.some((p) => entry.name.startsWith(`${p}-`))) await Deno.remove(new URL(entry.name, out));
}
try {
  for (const page of PUBLIC_PAGES) {
    for (const [width, scale] of [[390, 1], [1366, 0.5]] as const) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        deviceScaleFactor: scale,
        locale: LANG_INFO[lang].htmlLang,
        reducedMotion: "reduce",
      });
      // The consent choice is made, so the banner does not cover the page in the picture.
      await context.addInitScript(() => {
        try {
          localStorage.setItem("zapflow.consent", "denied");
        } catch { /* storage unavailable */ }
      });
      const tab = await context.newPage();
      await tab.goto(server.baseUrl + pagePath(page, lang));
      await tab.waitForSelector("html[data-hydrated=true]");
      await tab.evaluate(async () => {
        await document.fonts.ready;
        // Sections off screen skip painting (content-visibility, site.css) and would show blank in a full-page
        // picture: render them all, as each one is rendered for a visitor who scrolls to it.
        document.documentElement.classList.add("sections-rendered");
        // Render every lazy section and image before the full-page picture.
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 30));
        }
        scrollTo(0, 0);
      });
      await tab.waitForLoadState("networkidle");
      // Long pages are cut into consecutive parts so each file stays small enough to review.
      const height = await tab.evaluate(() => document.documentElement.scrollHeight);
      const step = width > 1000 ? 3600 : 2400;
      for (let y = 0, part = 1; y < height; y += step, part++) {
        if (y > 0 && height - y < 40) break; // a sliver of footer margin is not worth a file
        const file = new URL(`${page}-${width}-${part}.png`, out);
        const clip = { x: 0, y, width, height: Math.min(step, height - y) };
        await tab.screenshot({ path: file.pathname, fullPage: true, clip });
        const kb = ((await Deno.stat(file)).size / 1024).toFixed(0);
        console.log(`${file.pathname.split("/").at(-1)}: ${kb} KB`);
      }
      await context.close();
    }
  }
} finally {
  await server.close();
  await browser.close();
}
