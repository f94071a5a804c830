// Renders the self-hosted poster images of the demo videos (static/videos/*.webp, 960x540): text-free
// scenes in the brand's colours (a WhatsApp conversation, a Pipefy pipe, a Trello board), so no language is
// baked in and no request goes to YouTube before the visitor presses play. Chromium draws each scene, and
// its canvas encodes the WebP. A rebrand can replace these files with real frames of the videos (same names,
// or other names set in `src/site.ts`, `videos.*.thumbnail`). Run: `deno run -A scripts/video_thumbnails.ts`.
import { getBrowser } from "../e2e/browser.ts";
import { pngToWebp } from "./webp.ts";

const W = 960;
const H = 540;
const base = `margin:0;width:${W}px;height:${H}px;overflow:hidden;font-family:sans-serif;` +
  "background:linear-gradient(135deg,#075e54,#111b21);position:relative";
const bubble = (side: "in" | "out", width: number, top: number) =>
  `<div style="position:absolute;top:${top}px;${
    side === "in" ? "left:150px" : "right:150px"
  };width:${width}px;` +
  `height:46px;border-radius:16px;background:${side === "in" ? "#ffffff" : "#d9fdd3"};` +
  'box-shadow:0 6px 18px rgba(0,0,0,.18)"></div>';
const column = (left: number, cards: number, accent: string) =>
  `<div style="position:absolute;top:80px;left:${left}px;width:230px;height:380px;border-radius:16px;` +
  `background:rgba(255,255,255,.12)"><div style="margin:18px;height:14px;width:120px;border-radius:7px;` +
  `background:${accent}"></div>` +
  Array.from(
    { length: cards },
    () =>
      '<div style="margin:14px 18px;height:70px;border-radius:12px;background:#fff;' +
      'box-shadow:0 4px 12px rgba(0,0,0,.15)"></div>',
  ).join("") + "</div>";

const SCENES: Record<string, string> = {
  "home-demo": bubble("in", 380, 110) + bubble("out", 300, 180) + bubble("in", 420, 250) +
    bubble("out", 260, 320) + bubble("in", 340, 390),
  "pipefy-demo": column(105, 3, "#25d366") + column(365, 2, "#7ad3ff") + column(625, 1, "#f6c453"),
  "trello-demo": column(105, 2, "#7ad3ff") + column(365, 3, "#25d366") + column(625, 2, "#f6c453"),
};

const browser = await getBrowser();
const page = await browser.newPage({ viewport: { width: W, height: H } });
for (const [name, scene] of Object.entries(SCENES)) {
  await page.setContent(`<!doctype html><body style="${base}">${scene}</body>`);
  const bytes = await pngToWebp(page, await page.screenshot({ type: "png" }), 0.82);
  await Deno.writeFile(new URL(`../static/videos/${name}.webp`, import.meta.url), bytes);
  console.log(`wrote static/videos/${name}.webp (${bytes.byteLength} bytes)`);
}
await browser.close();
