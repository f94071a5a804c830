// A prospect on a phone (390 × 844, touch), from an ad, in pt, en and es (issue 35): the shortcut bar after the
// hero (both actions, no layout shift, never over the dialog or the consent banner), a consent banner that
// leaves the page readable, a language switch that keeps the section and the query, 44 px tap targets, each
// page's WhatsApp text, and the demo video without JavaScript.
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { browserTest, getBrowser, screenshot, serveApp, type Served } from "./browser.ts";
import { UA } from "./visitor.ts";
import { type Lang, LANG_INFO, LANGS } from "../src/shared/languages.ts";
import { pagePath } from "../src/shared/routes.ts";
import { SITE } from "../src/site.ts";

const PHONE = { width: 390, height: 844 };
const BAR_TEXT: Record<Lang, [string, string]> = {
  pt: ["Falar no WhatsApp", "Ver planos"],
  en: ["Chat on WhatsApp", "See plans"],
  es: ["Hablar por WhatsApp", "Ver planes"],
};
/** With a pixel id the consent banner shows (opt-in): the pixel and the tag manager wait for a choice. */
const CONSENT_ENV = { META_PIXEL_ID: "123456789012345", GTM_ID: "GTM-TEST12" };

let plain: Promise<Served> | undefined;
let withConsent: Promise<Served> | undefined;
const servers = () => [plain, withConsent].filter(Boolean) as Promise<Served>[];
globalThis.addEventListener("unload", () => {
  for (const s of servers()) s.then((x) => x.close()).catch(() => {});
});

async function phone(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await (await getBrowser()).newContext({
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
    locale: "pt-BR",
    userAgent: UA,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  await context.route("https://connect.facebook.net/**", (r) => r.fulfill({ status: 200, body: "" }));
  await context.route("https://www.googletagmanager.com/**", (r) => r.fulfill({ status: 200, body: "" }));
  return { page: await context.newPage(), context };
}

async function hydrated(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
}

/** The bar as a visitor sees it: shown (visible and on screen) or not, and its links. */
function barState(page: Page) {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>(".phone-bar");
    if (!bar) return null;
    const style = getComputedStyle(bar);
    const r = bar.getBoundingClientRect();
    return {
      shown: style.visibility === "visible" && style.display !== "none" && r.bottom <= innerHeight + 1 &&
        r.top >= innerHeight - 100,
      links: [...bar.querySelectorAll("a")].map((a) => ({
        text: [...a.childNodes].filter((n) => !(n instanceof Element && n.matches(".visually-hidden")))
          .map((n) => n.textContent).join("").replace(/\s+/g, " ").trim(),
        href: a.getAttribute("href"),
        height: a.getBoundingClientRect().height,
        cut: a.scrollWidth > a.clientWidth + 1,
      })),
    };
  });
}

/** Waits for the bar's transition to end in the expected state. */
async function barShown(page: Page, shown: boolean) {
  const state = () =>
    page.evaluate(() => ({
      url: location.href,
      scrollY,
      on: document.documentElement.classList.contains("phone-bar-on"),
      heroBottom: document.querySelector("main .hero")?.getBoundingClientRect().bottom,
      focus: document.activeElement?.tagName,
      dialog: !!document.querySelector("dialog[open]"),
    }));
  await page.waitForFunction(
    (want) => {
      const bar = document.querySelector<HTMLElement>(".phone-bar");
      if (!bar) return false;
      const r = bar.getBoundingClientRect();
      const on = getComputedStyle(bar).visibility === "visible" && Math.abs(r.bottom - innerHeight) < 1;
      return on === want;
    },
    shown,
    { timeout: 10_000 },
  ).catch(async (e) => {
    throw new Error(`bar ${shown ? "not shown" : "still shown"}: ${JSON.stringify(await state())}`, {
      cause: e,
    });
  });
  // Its slide over too, so a screenshot shows where it ends up (not half-way under the dialog's backdrop).
  await page.evaluate(() =>
    Promise.all(document.querySelector(".phone-bar")!.getAnimations().map((a) => a.finished.catch(() => {})))
  );
}

/** A finger on the menu button where it is (the header is sticky: nothing scrolls before the tap). */
async function fingerOnMenu(page: Page) {
  const toggle = (await page.locator(".menu-toggle").boundingBox())!;
  await page.touchscreen.tap(toggle.x + toggle.width / 2, toggle.y + toggle.height / 2);
  await page.locator("#site-nav.open").waitFor();
}

function waText(href: string | null): string {
  return new URL(href ?? "").searchParams.get("text") ?? "";
}

browserTest(
  "phone: the shortcut bar appears after the hero, in pt, en and es, without any layout shift",
  async () => {
    const served = await (plain ??= serveApp());
    const { page, context } = await phone();
    try {
      for (const lang of LANGS) {
        await page.addInitScript(() => {
          (globalThis as unknown as { __cls: number }).__cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
              if (!e.hadRecentInput) (globalThis as unknown as { __cls: number }).__cls += e.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
        });
        await hydrated(page, served.baseUrl + pagePath("home", lang));
        await page.evaluate(() => document.fonts.ready);
        const atTop = await barState(page);
        assert.ok(atTop, `${lang}: the bar is in the page`);
        assert.equal(atTop.shown, false, `${lang}: no bar over the hero`);
        const clsBefore = await page.evaluate(() => (globalThis as unknown as { __cls: number }).__cls);
        // Past the hero (a finger's scroll), the bar slides in.
        await page.evaluate(() => {
          const hero = document.querySelector("main .hero")!;
          scrollTo(0, hero.getBoundingClientRect().bottom + scrollY + 40);
        });
        await barShown(page, true);
        const bar = (await barState(page))!;
        assert.deepEqual(
          bar.links.map((l) => l.text),
          BAR_TEXT[lang],
          `${lang}: actions`,
        );
        assert.equal(
          waText(bar.links[0].href),
          SITE.whatsappMessages.specialist[lang],
          `${lang}: WhatsApp text`,
        );
        assert.equal(bar.links[1].href, `/${LANG_INFO[lang].prefix}/#precos`);
        for (const l of bar.links) assert.equal(l.cut, false, `${lang}: ${l.text} cut off`);
        for (const l of bar.links) assert.ok(l.height >= 44, `${lang}: ${l.text} is ${l.height} px tall`);
        // Appearing shifted nothing (fixed, its room reserved at the end of the page from the first paint).
        const cls = await page.evaluate(() => (globalThis as unknown as { __cls: number }).__cls);
        assert.equal(cls - clsBefore, 0, `${lang}: layout shift when the bar appeared`);
        // Back at the top, it goes away.
        await page.evaluate(() => scrollTo(0, 0));
        await barShown(page, false);
        // "See plans" lands on the plans.
        await page.evaluate(() => scrollTo(0, document.querySelector("main .hero")!.clientHeight + 200));
        await barShown(page, true);
        // The narrowest phones: both labels still whole.
        await page.setViewportSize({ width: 320, height: 640 });
        for (const l of (await barState(page))!.links) {
          assert.equal(l.cut, false, `${lang} at 320 px: ${l.text} cut off`);
        }
        await page.setViewportSize(PHONE);
        await page.locator(".phone-bar a").nth(1).tap();
        await page.waitForFunction(
          () => {
            const r = document.getElementById("precos")!.getBoundingClientRect();
            return Math.abs(r.top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)) <
              10;
          },
          null,
          { timeout: 5000 },
        );
      }
    } finally {
      await context.close();
    }
  },
);

browserTest(
  "phone: every WhatsApp link sends the text meant for its page; the customers page has one",
  async () => {
    const served = await (plain ??= serveApp());
    const { page, context } = await phone();
    const expected = {
      home: "specialist",
      pipefy: "pipefy",
      trello: "trello",
      customers: "customers",
    } as const;
    try {
      for (const lang of LANGS) {
        for (const [id, key] of Object.entries(expected) as [keyof typeof expected, string][]) {
          await page.goto(served.baseUrl + pagePath(id, lang));
          const texts = await page.locator('a[href*="wa.me"]').evaluateAll((as) =>
            as.map((a) => new URL(a.getAttribute("href")!).searchParams.get("text"))
          );
          const want = SITE.whatsappMessages[key as keyof typeof SITE.whatsappMessages][lang];
          assert.ok(texts.length >= 1, `${id} ${lang}: a WhatsApp link`);
          assert.deepEqual(new Set(texts), new Set([want]), `${id} ${lang}: WhatsApp texts`);
          if (id === "customers") {
            // Besides the phone bar, the page itself offers WhatsApp (visible at every width).
            assert.ok(
              await page.locator('main a[href*="wa.me"]').first().isVisible(),
              `${lang}: in the page`,
            );
          }
        }
      }
    } finally {
      await context.close();
    }
  },
);

browserTest("phone: the bar hides while the lead dialog is open or a form field has focus", async () => {
  const served = await (plain ??= serveApp());
  const { page, context } = await phone();
  await context.route("https://app.zapflow.com.br/**", (r) => r.fulfill({ status: 200, body: "ok" }));
  try {
    for (const lang of LANGS) {
      await hydrated(page, served.baseUrl + `/${LANG_INFO[lang].prefix}/#precos`);
      await barShown(page, true);
      await page.locator("#precos [data-lead]").nth(1).tap();
      await page.waitForSelector("dialog[open]", { timeout: 15_000 });
      await barShown(page, false);
      await screenshot(page, `phone-dialog-${lang}.png`);
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => !document.querySelector("dialog[open]"));
      await barShown(page, true);
      // A focused form field (the keyboard is up) keeps the bar away too.
      await page.evaluate(() => {
        const input = document.createElement("input");
        input.setAttribute("aria-label", "test");
        document.querySelector("main")!.append(input);
        input.focus({ preventScroll: true });
      });
      await barShown(page, false);
    }
  } finally {
    await context.close();
  }
});

browserTest(
  "phone: a tap on a plan button at the screen's foot opens the dialog while the bar slides in",
  async () => {
    // A jump to the plans that leaves a plan button at the foot of the screen makes the bar slide in over it;
    // a press that began on the button and ended on the arriving bar was no click at all (seen in
    // e2e/lead_modal_test.ts: the release met the bar, the click went to the page). The bar's slide is held
    // half-way here, so the tap comes while it is arriving, whatever the machine's speed.
    const served = await (plain ??= serveApp());
    const { page, context } = await phone();
    try {
      for (const lang of LANGS) {
        await hydrated(page, served.baseUrl + `/${LANG_INFO[lang].prefix}/`);
        const tapAt = await page.evaluate(async () => {
          const button = document.querySelectorAll<HTMLElement>("#precos [data-lead]")[1]; // Pro
          button.scrollIntoView({ block: "end", behavior: "instant" });
          const root = document.documentElement;
          while (!root.classList.contains("phone-bar-on")) await new Promise(requestAnimationFrame);
          const bar = document.querySelector<HTMLElement>(".phone-bar")!;
          for (const a of bar.getAnimations()) {
            a.pause();
            a.currentTime = 100;
          }
          const r = button.getBoundingClientRect();
          return {
            x: r.x + r.width / 2,
            y: innerHeight - 6,
            buttonBottom: r.bottom,
            barTop: bar.getBoundingClientRect().top,
          };
        });
        assert.ok(
          tapAt.barTop < tapAt.y && tapAt.buttonBottom > tapAt.y,
          `${lang}: ${JSON.stringify(tapAt)}`,
        );
        await page.touchscreen.tap(tapAt.x, tapAt.y);
        await page.waitForSelector("dialog[open]", { timeout: 15_000 });
        // The slide goes on (the dialog hides the bar, which may replace it by another: any is played out).
        await page.evaluate(() => {
          for (const a of document.querySelector(".phone-bar")!.getAnimations()) a.play();
        });
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.querySelector("dialog[open]"));
        // Once it has arrived, the bar takes taps again.
        await barShown(page, true);
        await page.waitForFunction(
          () => getComputedStyle(document.querySelector(".phone-bar")!).pointerEvents === "auto",
          null,
          { timeout: 5_000 },
        );
      }
    } finally {
      await context.close();
    }
  },
);

browserTest(
  "phone: the consent banner takes at most 20 % of the screen, comes first to the keyboard and hides the bar",
  async () => {
    const served = await (withConsent ??= serveApp(CONSENT_ENV));
    const { page, context } = await phone();
    try {
      for (const lang of LANGS) {
        await page.goto(served.baseUrl + pagePath("home", lang));
        await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
        await page.evaluate(() => localStorage.clear());
        await page.reload();
        await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
        await page.evaluate(() => document.fonts.ready);
        const banner = page.locator(".consent-banner");
        await banner.waitFor({ state: "visible" });
        const box = (await banner.boundingBox())!;
        await screenshot(page, `phone-consent-${lang}.png`);
        assert.ok(box.height <= 0.2 * PHONE.height, `${lang}: banner ${box.height} px of ${PHONE.height}`);
        assert.ok(box.y + box.height <= PHONE.height + 1, `${lang}: banner on screen`);
        for (const b of await banner.locator("button").all()) {
          assert.ok((await b.boundingBox())!.height >= 44, `${lang}: consent buttons are 44 px targets`);
        }
        // Early in the keyboard order: after the skip link, before the header.
        const order = await page.evaluate(() => {
          const focusable = [...document.querySelectorAll<HTMLElement>("a[href], button")]
            .filter((el) => !el.closest("[hidden]"));
          return focusable.findIndex((el) => el.closest(".consent-banner"));
        });
        assert.ok(
          order >= 0 && order <= 1,
          `${lang}: the banner's first control is focusable number ${order + 1}`,
        );
        // Above a tooltip (z-order).
        const z = await page.evaluate(() => {
          const tip = document.querySelector<HTMLElement>(".tooltip")!;
          return [
            Number(getComputedStyle(document.querySelector(".consent-banner")!).zIndex),
            Number(getComputedStyle(tip).zIndex),
          ];
        });
        assert.ok(z[0] > z[1], `${lang}: banner z-index ${z[0]} over tooltip ${z[1]}`);
        // Past the hero, the bar still stays away while the banner asks.
        await page.evaluate(() => scrollTo(0, document.querySelector("main .hero")!.clientHeight + 200));
        // The bar's own check has run (its class is set) and any transition it started has ended: only then
        // does "not shown" say the banner keeps it away.
        await page.waitForFunction(() => document.documentElement.classList.contains("phone-bar-on"));
        await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
        assert.equal((await barState(page))!.shown, false, `${lang}: bar under the banner`);
        await banner.locator('[data-consent="denied"]').tap();
        await barShown(page, true);
        await screenshot(page, `phone-bar-${lang}.png`);
      }
    } finally {
      await context.close();
    }
  },
);

browserTest(
  "phone: switching language keeps the section (with JavaScript) and the query (without)",
  async () => {
    const served = await (plain ??= serveApp());
    const query = "?utm_source=meta&utm_campaign=nov&utm_content=ad%201";
    {
      const { page, context } = await phone();
      try {
        await hydrated(page, served.baseUrl + "/pt-br" + query);
        await page.evaluate(() => {
          document.documentElement.classList.add("sections-rendered");
          document.getElementById("precos")!.scrollIntoView({ block: "start", behavior: "instant" });
          scrollBy(0, 200);
        });
        await fingerOnMenu(page);
        await page.locator('.lang-list a[hreflang="en"]').tap();
        await page.waitForURL(served.baseUrl + "/en" + query + "#precos");
        await page.waitForSelector("html[data-hydrated=true]");
        // The browser scrolls to the anchor once the page has loaded: wait for it to land on the plans.
        await page.waitForFunction(
          () => {
            const top = document.getElementById("precos")!.getBoundingClientRect().top;
            return top >= 0 && top < 200;
          },
          null,
          { timeout: 10_000 },
        );
        // On a legal page, the numbered section goes along.
        await hydrated(page, served.baseUrl + "/en/privacy-policy");
        await page.evaluate(() =>
          document.getElementById("secao-5")!.scrollIntoView({ behavior: "instant" })
        );
        await fingerOnMenu(page);
        await page.locator('.lang-list a[hreflang="es"]').tap();
        await page.waitForURL(served.baseUrl + "/es/politica-de-privacidad#secao-5");
      } finally {
        await context.close();
      }
    }
    {
      const { page, context } = await phone({ javaScriptEnabled: false });
      try {
        await page.goto(served.baseUrl + "/pt-br/trello-whatsapp-integracao" + query);
        const hrefs = await page.locator(".lang-list a[hreflang]").evaluateAll((as) =>
          as.map((a) => a.getAttribute("href"))
        );
        assert.deepEqual(hrefs, [
          "/pt-br/trello-whatsapp-integracao" + query,
          "/en/trello-whatsapp-integracao" + query,
          "/es/trello-whatsapp-integracao" + query,
        ]);
        await page.locator(".menu-toggle").click();
        await page.locator('.lang-list a[hreflang="es"]').click();
        await page.waitForURL(served.baseUrl + "/es/trello-whatsapp-integracao" + query);
        // Without a query the links are the plain paths (the cached page as before).
        await page.goto(served.baseUrl + "/es/clientes");
        assert.equal(await page.locator('.lang-list a[hreflang="en"]').getAttribute("href"), "/en/clientes");
      } finally {
        await context.close();
      }
    }
    // A hostile query cannot break out of the attribute.
    const res = await fetch(served.baseUrl + '/pt-br?x="><script>alert(1)</script>');
    const html = await res.text();
    assert.ok(!html.includes("<script>alert(1)"), "query escaped");
  },
);

browserTest("phone: legal contents links and the menu's language chips are 44 px tap targets", async () => {
  const served = await (plain ??= serveApp());
  const { page, context } = await phone();
  try {
    for (const lang of LANGS) {
      await hydrated(page, served.baseUrl + pagePath("terms", lang));
      const heights = await page.locator(".legal-toc a").evaluateAll((as) =>
        as.map((a) => a.getBoundingClientRect().height)
      );
      assert.equal(heights.length, 13);
      for (const h of heights) assert.ok(h >= 44, `${lang}: a contents link is ${h} px tall`);
      await page.locator(".menu-toggle").tap();
      const chips = await page.locator(".lang-list a").evaluateAll((as) =>
        as.map((a) => [a.getBoundingClientRect().width, a.getBoundingClientRect().height])
      );
      assert.equal(chips.length, 3);
      for (const [w, h] of chips) assert.ok(w >= 44 && h >= 44, `${lang}: a language chip is ${w} × ${h} px`);
    }
  } finally {
    await context.close();
  }
});

browserTest("phone: without JavaScript the demo video is a link to the video on YouTube", async () => {
  const served = await (plain ??= serveApp());
  const { page, context } = await phone({ javaScriptEnabled: false });
  try {
    await context.route("https://www.youtube.com/**", (r) => r.fulfill({ status: 200, body: "video" }));
    await page.goto(served.baseUrl + "/pt-br#video-demo");
    const link = page.locator("#video-demo a.video-noscript");
    assert.equal(
      await link.getAttribute("href"),
      `https://www.youtube.com/watch?v=${SITE.videos.homeDemo.id}&t=325s`,
    );
    const popup = page.context().waitForEvent("page");
    await page.locator("#video-demo .video-frame").tap();
    assert.match((await popup).url(), /^https:\/\/www\.youtube\.com\/watch\?v=/);
  } finally {
    await context.close();
  }
});
