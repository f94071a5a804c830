// Regenerates static/og-image.png (1200x630, the Open Graph / Twitter card image) by screenshotting a small
// HTML card in the system Chromium. Run after a rebrand: `deno run -A scripts/og_image.ts`.
import { getBrowser } from "../e2e/browser.ts";
import { SITE } from "../src/site.ts";

const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; width: 1200px; height: 630px; font-family: "Inter", "DejaVu Sans", sans-serif;
    background: radial-gradient(700px 420px at 90% 10%, rgba(37,211,102,.35), transparent 70%),
    linear-gradient(135deg, #054d44, #111b21); color: #fff; display: flex; flex-direction: column;
    justify-content: center; padding: 0 90px; box-sizing: border-box; }
  .brand { display: flex; align-items: center; gap: 18px; font-size: 44px; font-weight: 800; }
  h1 { font-size: 56px; line-height: 1.1; margin: 40px 0 24px; max-width: 950px; letter-spacing: -1px; }
  p { font-size: 26px; margin: 0; color: rgba(255,255,255,.88); }
  .chips { display: flex; gap: 16px; margin-top: 44px; }
  .chip { background: rgba(255,255,255,.12); border: 1px solid rgba(255,255,255,.25); border-radius: 999px;
    padding: 10px 24px; font-size: 24px; font-weight: 600; }
</style></head><body>
  <div class="brand"><svg width="64" height="64" viewBox="0 0 32 32"><rect width="32" height="32" rx="9" fill="#075e54"/>
  <path d="M9 10h14l-10 12h10" fill="none" stroke="#25d366" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>${SITE.brand}</div>
  <h1>Automação de WhatsApp Business com chatbot e CRM</h1>
  <p>WhatsApp Business automation · Automatización de WhatsApp Business</p>
  <div class="chips"><span class="chip">★ 4,9 / 5</span><span class="chip">+150 empresas</span><span class="chip">7 dias grátis</span></div>
</body></html>`;

const browser = await getBrowser();
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.screenshot({ path: new URL("../static/og-image.png", import.meta.url).pathname, type: "png" });
await browser.close();
console.log("wrote static/og-image.png");
