import assert from "node:assert/strict";
import { browserTest, openPage, serveApp } from "./browser.ts";

browserTest("every page type hydrates with no console errors", async () => {
  const server = await serveApp();
  try {
    for (
      const path of [
        "/pt-br",
        "/en/clientes",
        "/es/terminos-de-servicio",
        "/pt-br/pipefy-whatsapp-integracao",
      ]
    ) {
      const { page, problems, close } = await openPage(server.baseUrl, { width: 390, height: 844 });
      const res = await page.goto(server.baseUrl + path);
      assert.equal(res?.status(), 200, path);
      await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
      // A client-only interaction: the phone menu opens only once React is running.
      const toggle = page.locator("button.menu-toggle");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-expanded"), "true", path);
      assert.ok(await page.locator("#site-nav").isVisible(), path);
      assert.deepEqual(problems.consoleErrors, [], path);
      assert.deepEqual(problems.failedRequests, [], path);
      await close();
    }
  } finally {
    await server.close();
  }
});

browserTest("the 404 page shows the documented text", async () => {
  const server = await serveApp();
  try {
    const { page, close } = await openPage(server.baseUrl);
    const res = await page.goto(server.baseUrl + "/pt-br/nope");
    assert.equal(res?.status(), 404);
    assert.equal(await page.locator("h1").textContent(), "404 Page Not Found");
    assert.ok(await page.getByText("Did you forget to add the page to the router?").isVisible());
    await close();
  } finally {
    await server.close();
  }
});
