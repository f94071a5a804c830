// Where an anchor link really lands (issue 15): every page that links to an anchor, at phone, tablet and
// desktop widths, with smooth scrolling and with reduced motion; a click on the same page, a click that
// leads to another page (`/{lang}/#precos`, `#hero-cta`) and a direct load with a hash. The target must end
// up just below the sticky header (the page's scroll-padding-top, ± 8 px) and stay there once images and
// lazily rendered sections have settled.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, getBrowser, serveApp } from "./browser.ts";

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 900 },
];
const MOTIONS = ["no-preference", "reduce"] as const;
const TOLERANCE_PX = 8;

interface Case {
  name: string;
  kind: "click" | "cross-page" | "direct";
  /** The page opened first (for "direct", with its hash). */
  path: string;
  /** The link clicked ("click" and "cross-page"). */
  link?: string;
  /** The element that must land under the header. */
  target: string;
  /** Only at widths where the link is on screen without opening a menu. */
  minWidth?: number;
}

const CASES: Case[] = [
  {
    name: "home hero → #precos",
    kind: "click",
    path: "/pt-br",
    link: '#hero-cta a[href$="#precos"]',
    target: "precos",
  },
  {
    name: "home hero → #video-demo",
    kind: "click",
    path: "/pt-br",
    link: '#hero-cta a[href$="#video-demo"]',
    target: "video-demo",
  },
  {
    name: "home header → #funcionalidades",
    kind: "click",
    path: "/pt-br",
    link: '#site-nav a[href$="#funcionalidades"]',
    target: "funcionalidades",
    minWidth: 1021,
  },
  {
    name: "home final CTA → #precos",
    kind: "click",
    path: "/pt-br",
    link: '#cta-final a[href$="#precos"]',
    target: "precos",
  },
  {
    name: "trello hero → #precos",
    kind: "click",
    path: "/pt-br/trello-whatsapp-integracao",
    link: '#hero-cta a[href="#precos"]',
    target: "precos",
  },
  {
    name: "trello hero → #video-demo",
    kind: "click",
    path: "/pt-br/trello-whatsapp-integracao",
    link: '#hero-cta a[href="#video-demo"]',
    target: "video-demo",
  },
  {
    name: "pipefy final CTA → #video-demo",
    kind: "click",
    path: "/pt-br/pipefy-whatsapp-integracao",
    link: '#cta-final a[href="#video-demo"]',
    target: "video-demo",
  },
  {
    name: "terms contents → #secao-10",
    kind: "click",
    path: "/pt-br/termos-de-uso",
    link: '.legal-toc a[href="#secao-10"]',
    target: "secao-10",
  },
  {
    name: "pipefy hero → /pt-br/#precos",
    kind: "cross-page",
    path: "/pt-br/pipefy-whatsapp-integracao",
    link: '#hero-cta a[href="/pt-br/#precos"]',
    target: "precos",
  },
  {
    name: "customers → /pt-br/#precos",
    kind: "cross-page",
    path: "/pt-br/clientes",
    link: '#cta-final a[href="/pt-br/#precos"]',
    target: "precos",
  },
  {
    name: "customers → /pt-br/#hero-cta",
    kind: "cross-page",
    path: "/pt-br/clientes",
    link: '#cta-final a[href="/pt-br/#hero-cta"]',
    target: "hero-cta",
  },
  { name: "load /pt-br#faq", kind: "direct", path: "/pt-br#faq", target: "faq" },
  { name: "load /pt-br/#precos", kind: "direct", path: "/pt-br/#precos", target: "precos" },
  { name: "load /en/#video-demo", kind: "direct", path: "/en/#video-demo", target: "video-demo" },
  {
    name: "load trello#precos",
    kind: "direct",
    path: "/pt-br/trello-whatsapp-integracao#precos",
    target: "precos",
  },
  {
    name: "load pipefy#planos",
    kind: "direct",
    path: "/es/pipefy-whatsapp-integracao#planos",
    target: "planos",
  },
  { name: "load terms#secao-7", kind: "direct", path: "/pt-br/termos-de-uso#secao-7", target: "secao-7" },
];

/**
 * Waits until the page has stopped scrolling (scrollY unchanged for 400 ms), then 600 ms more for late
 * images and lazily rendered sections, and returns how far the target sits from where it should: its top
 * minus the scroll padding under the sticky header. A target the page cannot scroll up to (too close to the
 * end) counts as landed when it is fully below the header and the page is scrolled to its end.
 */
function landingOffset(page: Page, id: string): Promise<number> {
  return page.evaluate(async (id) => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let last = -1;
    let still = 0;
    for (let i = 0; i < 100 && still < 4; i++) {
      await sleep(100);
      if (scrollY === last) still++;
      else [last, still] = [scrollY, 0];
    }
    await sleep(600);
    const target = document.getElementById(id);
    if (!target) return Number.NaN;
    const pad = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    const top = target.getBoundingClientRect().top - pad;
    const atEnd = scrollY >= document.documentElement.scrollHeight - innerHeight - 1;
    return atEnd && top > 0 ? 0 : Math.round(top);
  }, id);
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
}

async function land(page: Page, baseUrl: string, c: Case): Promise<number> {
  await page.goto("about:blank");
  await page.goto(baseUrl + c.path);
  await hydrated(page);
  if (c.kind !== "direct") {
    const link = page.locator(c.link!).first();
    assert.equal(await link.count(), 1, `${c.name}: the link ${c.link} exists`);
    await link.click();
    if (c.kind === "cross-page") {
      await page.waitForURL((url) => url.hash === `#${c.target}` && url.pathname !== c.path);
      await hydrated(page);
    }
  }
  return landingOffset(page, c.target);
}

browserTest(
  "anchors: every anchor link lands its target just below the header, at every width and motion",
  async () => {
    const served = await serveApp();
    // The six width × motion combinations run side by side, each in its own browser context: most of a
    // measurement is waiting for the page to settle, and the landing must hold on a busy machine too.
    const runs = MOTIONS.flatMap((motion) => WIDTHS.map((viewport) => ({ motion, viewport })));
    let settled: PromiseSettledResult<{ rows: string[]; wrong: string[] }>[];
    try {
      // allSettled: the server stays up until every context is done, even when one fails.
      settled = await Promise.allSettled(runs.map(async ({ motion, viewport }) => {
        const rows: string[] = [];
        const wrong: string[] = [];
        const context = await (await getBrowser()).newContext({
          viewport,
          reducedMotion: motion,
          locale: "pt-BR",
        });
        const page = await context.newPage();
        try {
          for (const c of CASES) {
            if (c.minWidth && viewport.width < c.minWidth) continue;
            const offset = await land(page, served.baseUrl, c);
            const motionName = motion === "reduce" ? "reduced" : "smooth";
            rows.push(`| ${c.name} | ${c.kind} | ${viewport.width} | ${motionName} | ${offset} |`);
            if (!(Math.abs(offset) <= TOLERANCE_PX)) {
              wrong.push(`${c.name} at ${viewport.width} px, ${motionName}: ${offset} px off`);
            }
          }
        } finally {
          await context.close();
        }
        return { rows, wrong };
      }));
    } finally {
      await served.close();
    }
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const results = settled.map((r) =>
      (r as PromiseFulfilledResult<{ rows: string[]; wrong: string[] }>).value
    );
    const rows = results.flatMap((r) => r.rows);
    const wrong = results.flatMap((r) => r.wrong);
    console.log(
      ["| case | kind | width | motion | offset px |", "|---|---|---|---|---|", ...rows].join("\n"),
    );
    assert.deepEqual(wrong, []);
  },
);
