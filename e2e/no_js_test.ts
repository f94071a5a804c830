// The public site with JavaScript disabled (issue 16): every page reads fully, the FAQ opens and closes,
// and the navigation, anchor, language and plan links lead to real pages.
import assert from "node:assert/strict";
import { browserTest, getBrowser, serveApp } from "./browser.ts";
import { UA, waitFor } from "./visitor.ts";
import { SITE_PAGES } from "./site_fixtures.ts";

browserTest("no javascript: every public page reads, its FAQ works and its links resolve", async () => {
  const server = await serveApp();
  const { baseUrl } = server;
  const context = await (await getBrowser()).newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  const checked = new Map<string, number>();
  /** Status of a same-site page (fetched once); an anchor must exist on the page it points at. */
  const resolve = async (href: string): Promise<string | null> => {
    const url = new URL(href, baseUrl);
    const key = url.pathname + url.search;
    if (!checked.has(key)) {
      const res = await fetch(baseUrl + key, { redirect: "manual" });
      checked.set(key, res.status);
      await res.body?.cancel();
    }
    if (checked.get(key) !== 200) return `${href}: ${checked.get(key)}`;
    if (url.hash) {
      const html = await (await fetch(baseUrl + key)).text();
      if (!html.includes(`id="${decodeURIComponent(url.hash.slice(1))}"`)) return `${href}: no such anchor`;
    }
    return null;
  };
  try {
    const page = await context.newPage();
    const broken: string[] = [];
    for (const p of SITE_PAGES) {
      const res = await page.goto(baseUrl + p.path);
      assert.equal(res?.status(), 200, p.path);
      // The page does ship its module (its inline loader), and reads without it.
      assert.equal(await page.evaluate(() => document.querySelectorAll("script").length > 0), true);
      // Readable: the main heading and the body text are there, and visible.
      const h1 = page.locator("main h1");
      assert.ok(await h1.isVisible(), `${p.path}: main heading`);
      assert.ok((await h1.innerText()).trim().length > 5, `${p.path}: main heading text`);
      const text = await page.locator("main").innerText();
      assert.ok(text.length > 1000, `${p.path}: body text (${text.length} characters)`);
      // The FAQ opens and closes by itself (details/summary).
      const faq = page.locator("#faq .faq-item");
      if (await faq.count()) {
        const first = faq.nth(0);
        await first.locator("summary").click();
        assert.ok(await first.locator("[role=region]").isVisible(), `${p.path}: FAQ answer opens`);
        await first.locator("summary").click();
        assert.equal(await first.locator("[role=region]").isVisible(), false, `${p.path}: FAQ answer closes`);
      }
      // Navigation, anchors, language links and the footer: same-site links answer 200 (anchors exist).
      const links = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>("header a[href], main a[href], footer a[href]")]
          .map((a) => a.getAttribute("href")!)
      );
      for (const href of new Set(links)) {
        if (/^(https?:|mailto:|tel:)/.test(href) && !href.startsWith(baseUrl)) continue;
        if (href.startsWith("/go/checkout?")) continue; // a redirect, checked below and in the next test
        const problem = await resolve(href.startsWith("#") ? p.path + href : href);
        if (problem) broken.push(`${p.path}: ${problem}`);
      }
      const langs = await page.locator(".lang-list a[hreflang]").count();
      assert.equal(langs, 3, `${p.path}: language links`);
      // A plan button is a real link: through /go/checkout to the plan's checkout, or WhatsApp for the specialist.
      for (
        const href of await page.locator("[data-lead]").evaluateAll((els) =>
          els.map((el) => el.getAttribute("href"))
        )
      ) {
        assert.match(
          href ?? "",
          /^(\/go\/checkout\?plan=(micro|pro|premium)|https:\/\/wa\.me\/.*)$/,
          `${p.path}: plan link ${href}`,
        );
      }
    }
    assert.deepEqual(broken, []);
    // On a phone the menu opens from its button (focus) and a language link leads to the other language.
    await page.goto(baseUrl + "/pt-br");
    await page.locator(".menu-toggle").click();
    assert.ok(await page.locator("#site-nav").isVisible(), "phone menu opens without JavaScript");
    await page.locator('.lang-list a[hreflang="en"]').click();
    await page.waitForURL(baseUrl + "/en");
    assert.equal(await page.getAttribute("html", "lang"), "en");
    // An anchor link lands on its section.
    await page.goto(baseUrl + "/en/pipefy-whatsapp-integracao");
    await page.locator('#hero-cta a[href="#video-demo"]').click();
    assert.equal(new URL(page.url()).hash, "#video-demo");
  } finally {
    await context.close();
    await server.close();
  }
});

browserTest(
  "no javascript: a plan link reaches checkout with every origin parameter and a counted click",
  async () => {
    const server = await serveApp();
    const context = await (await getBrowser()).newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
      userAgent: UA, // a person's browser: headless ones are bots, not counted
    });
    const checkouts: string[] = [];
    await context.route("https://app.zapflow.com.br/**", async (route) => {
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><title>ok</title>ok",
      });
    });
    try {
      const page = await context.newPage();
      const landing = "?utm_source=facebook&utm_medium=paid_social&utm_campaign=bf&utm_content=video1" +
        "&utm_term=crm&fbclid=IwAR0abc";
      for (const [path, plan] of [["/pt-br", "Pro"], ["/en", "Micro"], ["/es", "Premium"]]) {
        await page.goto(server.baseUrl + path + landing);
        // The checkout's request is what proves it: the headless shell does not hand a navigation that a
        // redirect leads off-site to the route above (the full Chromium does), so its answer is not awaited.
        const [checkout] = await Promise.all([
          page.waitForRequest(/^https:\/\/app\.zapflow\.com\.br\//),
          page.locator(`#precos a[data-lead]`, { hasText: plan }).click(),
        ]);
        checkouts.push(checkout.url());
      }
      assert.equal(checkouts.length, 3);
      for (const [i, plan] of ["pro", "micro", "premium"].entries()) {
        const url = new URL(checkouts[i]);
        assert.equal(url.pathname, `/checkout/${plan}`);
        assert.deepEqual(Object.fromEntries(url.searchParams), {
          utm_source: "facebook",
          utm_campaign: "bf",
          utm_medium: "paid_social",
          utm_content: "video1",
          utm_term: "crm",
          fbclid: "IwAR0abc",
        });
      }
      const clicks = await waitFor(
        () =>
          server.db.query<{ source: string; utm_source: string; utm_campaign: string; utm_medium: string }>(
            "select source, utm_source, utm_campaign, utm_medium from clicks order by id",
          ),
        (rows) => rows.length === 3,
      );
      assert.deepEqual(clicks.map((c) => c.source), [
        "pricing_pro_plan",
        "pricing_micro_plan",
        "pricing_premium_plan",
      ]);
      assert.ok(
        clicks.every((c) =>
          c.utm_source === "facebook" && c.utm_campaign === "bf" && c.utm_medium === "paid_social"
        ),
      );
    } finally {
      await context.close();
      await server.close();
    }
  },
);
