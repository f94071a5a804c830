// Tooltips (docs/PRODUCT.md, _Timings_): open 700 ms after hover or focus, at once when moving from one to
// the next within the 300 ms skip delay, described by aria-describedby, closed by Escape.
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { browserTest, openPage, serveApp } from "./browser.ts";

async function gotoHydratedFrozen(page: Page, url: string) {
  await page.clock.install();
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
  // From here on, the page's timers and Date move only when the test says so.
  await page.clock.pauseAt(new Date(await page.evaluate(() => Date.now()) + 1000));
}

/** The tooltip that describes a trigger (through aria-describedby). */
async function tipOf(page: Page, trigger: Locator): Promise<Locator> {
  const id = await trigger.getAttribute("aria-describedby");
  assert.ok(id, "the trigger is described by its tooltip");
  const tip = page.locator(`[id="${id}"]`);
  assert.equal(await tip.getAttribute("role"), "tooltip");
  return tip;
}

browserTest(
  "tooltips: open after 700 ms, at once within the 300 ms skip delay, and close on Escape",
  async () => {
    const served = await serveApp();
    const { page, problems, close } = await openPage(served.baseUrl, { width: 1366, height: 900 });
    try {
      await gotoHydratedFrozen(page, served.baseUrl + "/pt-br");
      const tips = page.locator(".plan-card .info-tip");
      assert.equal(await tips.count(), 6, "attendants and messages on each of the three cards");
      const [a, b, c, d] = [tips.nth(0), tips.nth(1), tips.nth(2), tips.nth(3)];
      const [tipA, tipB, tipC, tipD] = await Promise.all([a, b, c, d].map((t) => tipOf(page, t)));
      assert.match(await tipA.textContent() ?? "", /atendentes/i);

      await a.hover();
      await page.clock.runFor(690);
      assert.equal(await tipA.isVisible(), false, "still closed 690 ms after the pointer arrived");
      await page.clock.runFor(10);
      assert.equal(await tipA.isVisible(), true, "open at 700 ms");

      // Straight to the next one: no new delay.
      await b.hover();
      assert.equal(await tipA.isVisible(), false);
      assert.equal(await tipB.isVisible(), true, "the next tooltip opens at once");

      // Away for longer than the skip delay: the full delay again.
      await page.mouse.move(5, 890);
      await page.clock.runFor(310);
      await c.hover();
      await page.clock.runFor(690);
      assert.equal(await tipC.isVisible(), false, "after 310 ms away the delay applies again");
      await page.clock.runFor(10);
      assert.equal(await tipC.isVisible(), true);

      // Away for less than the skip delay: still at once.
      await page.mouse.move(5, 890);
      await page.clock.runFor(250);
      await d.hover();
      assert.equal(await tipD.isVisible(), true, "within 300 ms of the last one closing, at once");
      await page.keyboard.press("Escape");
      assert.equal(await tipD.isVisible(), false, "Escape closes it");

      // Keyboard: focus opens the language button's tooltip, in that button's language.
      await page.mouse.move(5, 890);
      await page.clock.runFor(1000);
      const en = page.locator('.lang-list a[hreflang="en"]');
      const tipEn = await tipOf(page, en);
      await en.focus();
      await page.clock.runFor(699);
      assert.equal(await tipEn.isVisible(), false);
      await page.clock.runFor(1);
      assert.equal(await tipEn.isVisible(), true, "focus opens it after 700 ms");
      assert.equal(await tipEn.textContent(), "Read this page in English");
      assert.equal(await tipEn.getAttribute("lang"), "en");
      assert.equal(await en.getAttribute("title"), null, "no native title beside it");
      await page.keyboard.press("Escape");
      assert.equal(await tipEn.isVisible(), false);
      assert.deepEqual(problems.consoleErrors, []);
    } finally {
      await close();
      await served.close();
    }
  },
);

browserTest(
  "tooltips: the Pipefy metric tiles say where each figure comes from, on a phone too",
  async () => {
    const served = await serveApp();
    const { page, close } = await openPage(served.baseUrl, { width: 320, height: 700 });
    try {
      await gotoHydratedFrozen(page, served.baseUrl + "/es/pipefy-whatsapp-integracao");
      const buttons = page.locator(".metric-tiles .info-tip");
      assert.equal(await buttons.count(), 3);
      for (let i = 0; i < 3; i++) {
        const button = buttons.nth(i);
        assert.equal(await button.getAttribute("aria-label"), "Sobre esta cifra");
        const tip = await tipOf(page, button);
        await button.focus();
        await page.clock.runFor(700);
        assert.equal(await tip.isVisible(), true);
        if (i === 0) assert.match(await tip.textContent() ?? "", /^Fuente: /);
        // Inside the screen, even on a 320 px phone.
        const box = (await tip.boundingBox())!;
        assert.ok(
          box.x >= 0 && box.x + box.width <= 320,
          `tooltip ${i} inside the screen: ${JSON.stringify(box)}`,
        );
        await page.keyboard.press("Escape");
        assert.equal(await tip.isVisible(), false);
      }
    } finally {
      await close();
      await served.close();
    }
  },
);
