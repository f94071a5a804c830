// Every public page, in every language, at the widths visitors really use (320 px phones to 1440 px
// desktops): no sideways scrolling, no text wrapped inside a button, no two controls on top of each other,
// no video title over its play button. One browser page is reused: each page is loaded once and resized
// through the widths. LAYOUT_SHOTS=dir saves a screenshot of every page and width (failures are always saved).
import assert from "node:assert/strict";
import { join } from "node:path";
import { browserTest, openPage, serveApp } from "./browser.ts";
import { SITE_PAGES } from "./site_fixtures.ts";

const WIDTHS = [320, 360, 390, 768, 1024, 1280, 1440];

/** What is wrong with the page as laid out now (runs in the browser). */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden" &&
      !el.closest(".visually-hidden, [hidden]");
  };
  const name = (el: Element) => {
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${
      el.className ? "." + String(el.className).split(" ")[0] : ""
    } "${text}"`;
  };

  // 1. Sideways scrolling, and what sticks out.
  if (root.scrollWidth > width) {
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o !== "visible") return true;
      }
      return false;
    };
    const out = [...document.body.querySelectorAll("*")]
      .filter((el) => shown(el) && el.getBoundingClientRect().right > width + 0.5 && !clipped(el))
      .slice(-3)
      .map(name);
    problems.push(`scrolls sideways: ${root.scrollWidth} px wide (${out.join("; ")})`);
  }

  // 2. Text wrapped inside a button: its text lines, gathered from the text's own boxes.
  // FAQ questions are accordion headings (long sentences by nature), not buttons with a label.
  const buttons = [...document.querySelectorAll(".btn, button, .lang-list a")]
    .filter((el) => shown(el) && !el.closest(".faq-item") && !el.matches(".video-poster"));
  for (const button of buttons) {
    const rects: DOMRect[] = [];
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest(".visually-hidden, [hidden]")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      rects.push(...[...range.getClientRects()].filter((r) => r.width > 0));
    }
    rects.sort((a, b) => a.top - b.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const r of rects) {
      if (r.top >= bottom - 1) lines++;
      bottom = Math.max(bottom, r.bottom);
    }
    if (lines > 1) problems.push(`text wrapped inside a button: ${name(button)}`);
    else if (button.scrollWidth > button.clientWidth + 1) {
      problems.push(`text cut off in a button: ${name(button)}`);
    }
  }

  // 3. Interactive elements on top of each other (neither inside the other).
  const controls = [...document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]")]
    .filter((el) => shown(el) && el.getAttribute("tabindex") !== "-1" && !el.matches(".skip-link"));
  const boxes = controls.map((el) => el.getBoundingClientRect());
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      if (controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
      const a = boxes[i];
      const b = boxes[j];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) problems.push(`overlap: ${name(controls[i])} and ${name(controls[j])}`);
    }
  }

  // 4. A video's title over its play button.
  for (const poster of document.querySelectorAll(".video-poster")) {
    const title = poster.querySelector(".video-poster-title");
    const play = poster.querySelector(".video-play");
    if (!title || !play || !shown(title)) continue;
    const a = title.getBoundingClientRect();
    const b = play.getBoundingClientRect();
    if (
      Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top) &&
      Math.min(a.right, b.right) > Math.max(a.left, b.left)
    ) {
      problems.push(`video title over the play button: ${name(title)}`);
    }
  }
  return problems;
}

browserTest(
  "layout: every page in every language at 320–1440 px: no sideways scroll, no wrapped button, no overlap",
  async () => {
    const served = await serveApp();
    const { page, close } = await openPage(served.baseUrl, { width: WIDTHS[0], height: 800 });
    const shots = Deno.env.get("LAYOUT_SHOTS") || await Deno.makeTempDir({ prefix: "layout-" });
    const found: string[] = [];
    try {
      await page.emulateMedia({ reducedMotion: "reduce" });
      for (const p of SITE_PAGES) {
        await page.setViewportSize({ width: WIDTHS[0], height: 800 });
        await page.goto(served.baseUrl + p.path);
        await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
        await page.evaluate(() => document.fonts.ready);
        // Sections below the first screen are rendered only near the viewport (site.css); a visitor sees each
        // one rendered, so measure them so (an unrendered section keeps a placeholder height its content
        // overflows).
        await page.evaluate(() => document.documentElement.classList.add("sections-rendered"));
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          // Two frames: the resize is laid out and painted before measuring.
          await page.evaluate(() =>
            new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
          );
          const problems = await page.evaluate(layoutProblems);
          const shot = join(shots, `${p.path.slice(1).replaceAll("/", "_")}-${width}.png`);
          if (problems.length || Deno.env.get("LAYOUT_SHOTS")) {
            await page.screenshot({ path: shot, fullPage: true });
          }
          for (const problem of problems) found.push(`${p.path} at ${width} px: ${problem}`);
        }
      }
    } finally {
      await close();
      await served.close();
    }
    if (found.length) console.log(`screenshots of the failures: ${shots}`);
    assert.deepEqual(found, []);
  },
);
