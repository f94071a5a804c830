// The public site as a visitor sees it: every page in every language, the header's timings, the FAQ,
// the logo fallback, the language switch, the video facade and accessibility (axe).
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { browserTest, getBrowser, openPage, screenshot, serveApp, type Served } from "./browser.ts";
import { COUNTS, SECTIONS, SITE_PAGES } from "./site_fixtures.ts";
import { LANG_STORAGE_KEY } from "../src/shared/languages.ts";
import { SITE } from "../src/site.ts";

let served: Promise<Served> | undefined;
/** One server for every test in this file. */
function server(): Promise<Served> {
  served ??= serveApp();
  return served;
}
globalThis.addEventListener("unload", () => {
  served?.then((s) => s.close()).catch(() => {});
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** Visible text with e-mail addresses and domain names removed, so only real key leaks remain. */
async function visibleText(page: Page): Promise<string> {
  const text = await page.evaluate(() => document.body.innerText);
  return text.replace(/\S+@\S+/g, " ").replace(/\b[\w-]+\.(com|br|org|net)(\.br)?\b/g, " ");
}

async function gotoHydrated(page: Page, url: string) {
  const res = await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
  return res;
}

/** Stops the page's timers so a test moves time itself (the clock was installed before the page loaded). */
async function freezeClock(page: Page) {
  await page.clock.pauseAt(new Date(await page.evaluate(() => Date.now()) + 1000));
}

browserTest("site: every public page in every language is complete and clean", async () => {
  const { baseUrl } = await server();
  const { page, problems, close } = await openPage(baseUrl, DESKTOP);
  try {
    for (const p of SITE_PAGES) {
      const res = await gotoHydrated(page, baseUrl + p.path);
      const where = `${p.path}`;
      assert.equal(res?.status(), 200, where);
      assert.equal(await page.getAttribute("html", "lang"), p.htmlLang, where);
      assert.equal(await page.locator("h1").count(), 1, `${where}: one h1`);
      assert.equal(await page.locator("header.site-header").count(), 1, where);
      assert.equal(await page.locator("main#main").count(), 1, where);
      assert.equal(await page.locator("footer.site-footer").count(), 1, where);
      // Sections present, in the order of docs/PRODUCT.md, _Page sections_.
      const positions = await page.evaluate((selectors) =>
        selectors.map((s) => {
          const el = document.querySelector(s);
          return el ? el.getBoundingClientRect().top + scrollY : -1;
        }), SECTIONS[p.page]);
      SECTIONS[p.page].forEach((s, i) => assert.ok(positions[i] >= 0, `${where}: ${s} is missing`));
      for (let i = 1; i < positions.length; i++) {
        assert.ok(positions[i] >= positions[i - 1], `${where}: ${SECTIONS[p.page][i]} is out of order`);
      }
      for (const [selector, n] of Object.entries(COUNTS[p.page])) {
        assert.equal(await page.locator(selector).count(), n, `${where}: ${selector}`);
      }
      const text = await visibleText(page);
      assert.doesNotMatch(
        text,
        /\b[a-z]+\.[a-zA-Z]+\.[a-zA-Z.]+\b/,
        `${where}: a translation key is visible`,
      );
      assert.doesNotMatch(text, /\{\{|\}\}/, `${where}: an interpolation is visible`);
      const headings = await page.evaluate(() =>
        [...document.querySelectorAll("main h1, main h2, main h3, main h4")].map((h) => Number(h.tagName[1]))
      );
      for (let i = 1; i < headings.length; i++) {
        assert.ok(headings[i] <= headings[i - 1] + 1, `${where}: heading level skips to h${headings[i]}`);
      }
      const untitled = await page.locator("img:not([alt])").count();
      assert.equal(untitled, 0, `${where}: images without alt`);
    }
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.failedRequests, []);
  } finally {
    await close();
  }
});

browserTest("site: legal pages link the cancellation page and end with the contact block", async () => {
  const { baseUrl } = await server();
  const { page, close } = await openPage(baseUrl, DESKTOP);
  try {
    await gotoHydrated(page, baseUrl + "/en/terms-of-service");
    assert.equal(await page.locator(`#secao-7 a[href="${SITE.chatbotCancellationUrl}"]`).count(), 1);
    assert.ok((await page.locator(".legal-contact").innerText()).includes(SITE.contactEmail));
    await gotoHydrated(page, baseUrl + "/pt-br/politica-privacidade");
    const text = await page.locator("main").innerText();
    for (const word of ["HMAC-SHA256", "utm_source", "Meta", "LGPD", "WhatsApp"]) {
      assert.ok(text.includes(word), `privacy mentions ${word}`);
    }
    assert.equal(await page.evaluate(() => scrollY), 0);
  } finally {
    await close();
  }
});

browserTest(
  "site: the integrations dropdown opens on hover and closes 150 ms after the pointer leaves",
  async () => {
    const { baseUrl } = await server();
    const { page, close } = await openPage(baseUrl, DESKTOP);
    try {
      await page.clock.install();
      await gotoHydrated(page, baseUrl + "/pt-br");
      await freezeClock(page);
      const toggle = page.locator(".dropdown-toggle");
      await toggle.hover({ force: true });
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      assert.ok(await page.locator("#integrations-menu").isVisible());
      await page.mouse.move(5, 600);
      await page.clock.runFor(140);
      assert.equal(await toggle.getAttribute("aria-expanded"), "true", "still open 140 ms after leaving");
      await page.clock.runFor(20);
      assert.equal(await toggle.getAttribute("aria-expanded"), "false", "closed after 150 ms");
      // Coming back within the delay keeps it open.
      await toggle.hover({ force: true });
      await page.mouse.move(5, 600);
      await page.clock.runFor(100);
      await toggle.hover({ force: true });
      await page.clock.runFor(300);
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    } finally {
      await close();
    }
  },
);

browserTest("site: the dropdown works by keyboard and by tap", async () => {
  const { baseUrl } = await server();
  const { page, close } = await openPage(baseUrl, DESKTOP);
  try {
    await gotoHydrated(page, baseUrl + "/es");
    const toggle = page.locator(".dropdown-toggle");
    await toggle.focus();
    await page.keyboard.press("Enter");
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("Tab");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("href")),
      "/es/pipefy-whatsapp-integracao",
    );
    await page.keyboard.press("Escape");
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(
      await page.evaluate(() => document.activeElement?.classList.contains("dropdown-toggle")),
      true,
    );
  } finally {
    await close();
  }
  // A real touch screen: a tap opens the menu (the mouseenter a tap emulates must not toggle it twice).
  // Reduced motion makes the page's scrolling instant: Playwright scrolls a link into view before tapping it,
  // and under load its tap could land mid-scroll on the element passing over the link (seen once in CI).
  const context = await (await getBrowser()).newContext({
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
    reducedMotion: "reduce",
  });
  try {
    const phone = await context.newPage();
    await gotoHydrated(phone, baseUrl + "/pt-br");
    await phone.locator("button.menu-toggle").tap();
    const toggle = phone.locator(".dropdown-toggle");
    await toggle.tap();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    await phone.locator('#integrations-menu a[href="/pt-br/trello-whatsapp-integracao"]').tap();
    await phone.waitForURL(/trello-whatsapp-integracao$/);
  } finally {
    await context.close();
  }
});

browserTest(
  "site: the phone menu closes 50 ms after an anchor click and the page scrolls there",
  async () => {
    const { baseUrl } = await server();
    const { page, close } = await openPage(baseUrl, PHONE);
    try {
      await page.clock.install();
      await gotoHydrated(page, baseUrl + "/pt-br");
      await freezeClock(page);
      const toggle = page.locator("button.menu-toggle");
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      await page.locator('#site-nav a[href="/pt-br/#precos"]').first().click();
      await page.clock.runFor(40);
      assert.equal(await toggle.getAttribute("aria-expanded"), "true", "still open 40 ms after the click");
      await page.clock.runFor(20);
      assert.equal(await toggle.getAttribute("aria-expanded"), "false", "closed after 50 ms");
      assert.equal(new URL(page.url()).hash, "#precos");
      await page.clock.runFor(2000);
      await page.waitForFunction(() => {
        const top = document.getElementById("precos")!.getBoundingClientRect().top;
        return top >= -5 && top < 200;
      });
    } finally {
      await close();
    }
  },
);

browserTest("site: the FAQ keeps one answer open and closes it on a second click", async () => {
  const { baseUrl } = await server();
  const { page, close } = await openPage(baseUrl, DESKTOP);
  try {
    await gotoHydrated(page, baseUrl + "/en");
    // Each question is a details/summary: its expanded state is the details' `open`.
    const buttons = page.locator("#faq .faq-item summary");
    const isExpanded = (i: number) =>
      page.locator("#faq .faq-item").nth(i).evaluate((d) => (d as HTMLDetailsElement).open);
    const expanded = () => page.locator("#faq .faq-item[open]").count();
    assert.equal(await expanded(), 0);
    await buttons.nth(0).click();
    assert.equal(await isExpanded(0), true);
    assert.ok(await page.locator("#faq .faq-item").nth(0).locator("[role=region]").isVisible());
    await buttons.nth(2).click();
    assert.equal(await expanded(), 1);
    assert.equal(await isExpanded(2), true);
    assert.equal(await page.locator("#faq .faq-item").nth(0).locator("[role=region]").isVisible(), false);
    await buttons.nth(2).click();
    assert.equal(await expanded(), 0);
  } finally {
    await close();
  }
});

browserTest("site: a customer logo that fails to load becomes an initials tile", async () => {
  const { baseUrl } = await server();
  const { page, problems, close } = await openPage(baseUrl, DESKTOP);
  try {
    // The broken logo is aborted on purpose: it is not a failure of the site.
    await page.route(
      "**/logos/moura-lima.webp",
      (route) => route.fulfill({ status: 200, body: "", contentType: "image/webp" }),
    );
    await gotoHydrated(page, baseUrl + "/pt-br/clientes");
    const card = page.locator(".logo-card", { hasText: "Moura & Lima Advogados" });
    await card.scrollIntoViewIfNeeded();
    const tile = card.locator(".logo-tile");
    await tile.waitFor();
    assert.equal(await tile.innerText(), "ML");
    assert.equal(await tile.getAttribute("aria-hidden"), "true", "decorative: the name is printed under it");
    assert.equal(await card.locator("img").count(), 0);
    assert.ok(await card.locator(".logo-sector").isVisible());
    assert.equal(await page.locator(".logo-card img").count(), 24);
    assert.equal(await page.locator('#cta-final a[href="/pt-br/#precos"]').count(), 1);
    assert.equal(await page.locator('#cta-final a[href="/pt-br/#hero-cta"]').count(), 1);
    assert.deepEqual(problems.consoleErrors, []);
  } finally {
    await close();
  }
});

browserTest(
  "site: the 25 customer marks share one size, their letters fit inside, and each name is printed once",
  async () => {
    const { baseUrl } = await server();
    const { page, close } = await openPage(baseUrl, PHONE);
    try {
      await gotoHydrated(page, baseUrl + "/es/clientes");
      // The marks load lazily: load them all now, to check each one arrived.
      await page.evaluate(() =>
        Promise.all([...document.querySelectorAll<HTMLImageElement>(".logo-card img")].map((img) => {
          img.loading = "eager";
          return img.decode().catch(() => {});
        }))
      );
      const cards = await page.evaluate(() =>
        [...document.querySelectorAll(".logo-card")].map((card) => {
          const image = card.querySelector("img")!;
          const img = image.getBoundingClientRect();
          return {
            natural: [image.naturalWidth, image.naturalHeight],
            text: (card as HTMLElement).innerText,
            name: card.querySelector(".logo-name")?.textContent,
            sector: card.querySelector(".logo-sector")?.textContent,
            size: [Math.round(img.width), Math.round(img.height)],
          };
        })
      );
      assert.equal(cards.length, SITE.customers.length);
      SITE.customers.forEach((c, i) => {
        const card = cards[i];
        assert.equal(card.name, c.name);
        assert.equal(card.text.split(c.name).length - 1, 1, `${c.name} is printed once`);
        assert.ok(card.sector && card.sector.length > 2, `${c.name} has a sector`);
        assert.deepEqual(card.size, [56, 56], `${c.name}: same size as the others`);
        assert.deepEqual(card.natural, [168, 168], `${c.name}: its mark loaded, sharp at 3x`);
      });
      // Each mark's source drawing (scripts/customer_logos.ts renders the WebP shown from it): whatever font
      // the system picks, its letters stay inside the 64-unit box.
      for (const c of SITE.customers) {
        await page.goto(baseUrl + c.logo.replace(/\.webp$/, ".svg"));
        const boxes = await page.evaluate(() =>
          [...document.querySelectorAll("text")].map((t) => {
            const b = (t as SVGGraphicsElement).getBBox();
            return [b.x, b.y, b.x + b.width, b.y + b.height];
          })
        );
        assert.ok(boxes.length <= 1, `${c.logo}: a monogram, not a wordmark`);
        for (const [x0, y0, x1, y1] of boxes) {
          assert.ok(x0 >= 4 && y0 >= 2 && x1 <= 60 && y1 <= 62, `${c.logo}: letters cut off (${x0}..${x1})`);
        }
      }
    } finally {
      await close();
    }
  },
);

browserTest(
  "site: the language switch lands on the same page in the other language, keeps the query and is remembered",
  async () => {
    const { baseUrl } = await server();
    const { page, close } = await openPage(baseUrl, DESKTOP);
    try {
      const query = "?utm_source=news&utm_campaign=nov%20sale&ref=a";
      await gotoHydrated(page, baseUrl + "/pt-br/politica-privacidade" + query);
      await page.locator('.lang-list a[hreflang="en"]').click();
      await page.waitForURL(baseUrl + "/en/privacy-policy" + query);
      await page.waitForSelector("html[data-hydrated=true]");
      assert.equal(await page.getAttribute("html", "lang"), "en");
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), LANG_STORAGE_KEY), "en");
      const cookie = (await page.context().cookies()).find((c) => c.name === "lang");
      assert.equal(cookie?.value, "en");
      assert.equal(cookie?.path, "/");
      assert.equal(cookie?.sameSite, "Lax");
      assert.ok(cookie!.expires * 1000 > Date.now() + 360 * 86_400_000, "kept for a year");
      await page.locator('.lang-list a[hreflang="es"]').click();
      await page.waitForURL(baseUrl + "/es/politica-de-privacidad" + query);
      // The root now honours the stored choice.
      await page.goto(baseUrl + "/");
      assert.equal(new URL(page.url()).pathname, "/es");
    } finally {
      await close();
    }
  },
);

browserTest(
  "site: videos load the privacy-enhanced player only on click, at the documented start time",
  async () => {
    const { baseUrl } = await server();
    const { page, problems, close } = await openPage(baseUrl, DESKTOP);
    try {
      const youtube: string[] = [];
      await page.route(/youtube|ytimg/, (route) => {
        youtube.push(route.request().url());
        return route.fulfill({
          status: 200,
          contentType: "text/html",
          body: "<!doctype html><title>player</title>",
        });
      });
      const posters: { url: string; type: string }[] = [];
      page.on("response", (res) => {
        if (res.url().includes("/videos/")) {
          posters.push({ url: res.url(), type: res.headers()["content-type"] });
        }
      });
      await gotoHydrated(page, baseUrl + "/pt-br");
      // The demo's self-hosted poster shows (loaded from this site, WebP); the cards keep their tiles.
      const poster = page.locator("#video-demo .video-poster img");
      await poster.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>("#video-demo .video-poster img");
        return img?.complete && img.naturalWidth > 0;
      });
      assert.equal(await poster.evaluate((img: HTMLImageElement) => img.naturalWidth), 960);
      assert.deepEqual(posters.map((p) => [new URL(p.url).pathname, p.type]), [
        [SITE.videos.homeDemo.thumbnail!.src, "image/webp"],
      ]);
      await screenshot(page, "video-poster-1366.png");
      assert.deepEqual(youtube, [], "nothing from YouTube before a click");
      await page.locator("#video-demo .video-poster").click();
      const src = await page.locator("#video-demo iframe").getAttribute("src");
      assert.match(src!, /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+\?start=325&/);
      await gotoHydrated(page, baseUrl + "/en/pipefy-whatsapp-integracao");
      await page.locator("#video-demo .video-poster").click();
      assert.match((await page.locator("#video-demo iframe").getAttribute("src"))!, /\?start=2&/);
      assert.deepEqual(problems.consoleErrors, []);
    } finally {
      await close();
    }
  },
);

browserTest("site: axe finds no serious or critical accessibility problem on any public page", async () => {
  const { baseUrl } = await server();
  const { page, close } = await openPage(baseUrl, DESKTOP);
  const source = (axe as unknown as { source: string }).source;
  // Colour transitions caught half-way (a slow machine) would make axe read a colour no one sees at rest.
  await page.emulateMedia({ reducedMotion: "reduce" });
  try {
    const found: string[] = [];
    // Every page at desktop width, and at phone width (one column: where targets sit closest).
    for (const [p, viewport] of SITE_PAGES.flatMap((p) => [[p, DESKTOP], [p, PHONE]] as const)) {
      await page.setViewportSize(viewport);
      await gotoHydrated(page, baseUrl + p.path);
      // Sections off screen skip their rendering (content-visibility: auto) and keep a placeholder height, so
      // their contents' boxes overlap the next section's until scrolled to; axe's target-size would measure
      // those placeholder positions. Lay every section out for real first.
      await page.addStyleTag({ content: "main > section { content-visibility: visible !important; }" });
      await page.addScriptTag({ content: source });
      const violations = await page.evaluate(async () => {
        // deno-lint-ignore no-explicit-any
        const result = await (globalThis as any).axe.run(document, {
          resultTypes: ["violations"],
          // WCAG 2.2's minimum target size (24 px), off in axe by default, on in Lighthouse.
          rules: { "target-size": { enabled: true } },
        });
        // deno-lint-ignore no-explicit-any
        return result.violations.map((v: any) => ({
          id: v.id,
          impact: v.impact,
          nodes: v.nodes.slice(0, 3).map((n: { target: string[] }) => n.target.join(" ")),
        }));
      });
      for (const v of violations) {
        if (v.impact === "serious" || v.impact === "critical") {
          found.push(`${p.path} at ${viewport.width} px: ${v.id} (${v.impact}) ${v.nodes.join(", ")}`);
        }
      }
    }
    assert.deepEqual(found, []);
  } finally {
    await close();
  }
});

browserTest(
  "site: the 404 keeps the documented sentences inside the site's header and footer, in the path's language",
  async () => {
    const { baseUrl } = await server();
    const cases = [
      { path: "/pt-br/nao-existe", lang: "pt-BR", home: "/pt-br", back: "Voltar para a página inicial" },
      { path: "/en/no/such/page", lang: "en", home: "/en", back: "Back to the home page" },
      { path: "/es/no-existe?utm_source=x", lang: "es", home: "/es", back: "Volver a la página de inicio" },
      { path: "/pagina-inexistente", lang: "pt-BR", home: "/pt-br", back: "Voltar para a página inicial" },
    ];
    for (const viewport of [PHONE, DESKTOP]) {
      for (const c of cases) {
        const { page, problems, close } = await openPage(baseUrl, viewport);
        const where = `${c.path} at ${viewport.width}`;
        try {
          const res = await gotoHydrated(page, baseUrl + c.path);
          assert.equal(res?.status(), 404, where);
          assert.equal(await page.getAttribute("html", "lang"), c.lang, where);
          assert.equal(await page.locator("h1").textContent(), "404 Page Not Found", where);
          assert.ok(
            (await page.locator("main").innerText()).includes(
              "Did you forget to add the page to the router?",
            ),
            where,
          );
          assert.equal(await page.locator("header.site-header").count(), 1, `${where}: header`);
          assert.equal(await page.locator("footer.site-footer").count(), 1, `${where}: footer`);
          const back = page.getByRole("link", { name: c.back });
          assert.equal(await back.getAttribute("href"), c.home, where);
          const name = `404-${c.lang}-${viewport.width}${
            c.path === "/pagina-inexistente" ? "-unprefixed" : ""
          }`;
          await screenshot(page, `${name}.png`, { fullPage: true });
          // The header works (it is hydrated): on a phone its menu opens.
          if (viewport === PHONE) {
            await page.locator(".menu-toggle").click();
            await page.locator("#site-nav.open").waitFor({ timeout: 3000 });
          }
          await back.click();
          await page.waitForURL(baseUrl + c.home);
          // The document's own 404 is the only failed load Chromium reports.
          const errors = problems.consoleErrors.filter((e) => !e.includes("status of 404"));
          assert.deepEqual(errors, [], where);
          assert.deepEqual(problems.failedRequests, [`${baseUrl}${c.path} 404`], where);
        } finally {
          await close();
        }
      }
    }
  },
);

browserTest(
  "site: no cookie-preferences link without a pixel or tag manager; the testimonials' stars share the hero's gold",
  async () => {
    const { baseUrl } = await server();
    const { page, close } = await openPage(baseUrl, DESKTOP);
    try {
      await gotoHydrated(page, baseUrl + "/pt-br");
      assert.equal(await page.locator(".site-footer button").count(), 0, "nothing to consent to, no link");
      const gold = await page.evaluate(() => ({
        hero: getComputedStyle(document.querySelector(".hero .pill svg")!).color,
        stars: [...document.querySelectorAll(".testimonial .stars")].map((el) => getComputedStyle(el).color),
        variable: getComputedStyle(document.documentElement).getPropertyValue("--gold").trim(),
      }));
      assert.equal(gold.variable, "#b7791f");
      assert.equal(gold.hero, "rgb(183, 121, 31)");
      assert.ok(gold.stars.length >= 3, "testimonials found");
      for (const color of gold.stars) assert.equal(color, gold.hero);
    } finally {
      await close();
    }
  },
);
