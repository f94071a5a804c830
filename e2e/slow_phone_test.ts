// A prospect from an ad on a slow phone (390 × 844 touch, 400 kbps, 400 ms latency, CPU 4× slower: the
// throttling of bench/slow_phone.ts, which prints the timings): a plan tap answers at once and no tap loses
// the visit's origin. No timings are asserted here, only what the visitor sees and what reaches the checkout.
import assert from "node:assert/strict";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { browserTest, getBrowser, serveApp, type Served } from "./browser.ts";
import { UA, waitFor } from "./visitor.ts";
import { throttle } from "../bench/slow_phone.ts";

const LANDING = "?utm_source=facebook&utm_medium=paid_social&utm_campaign=bf&utm_content=video1" +
  "&utm_term=crm&fbclid=IwAR0abc&gclid=Cj0KCQ";
const ORIGIN = {
  utm_source: "facebook",
  utm_campaign: "bf",
  utm_medium: "paid_social",
  utm_content: "video1",
  utm_term: "crm",
  gclid: "Cj0KCQ",
  fbclid: "IwAR0abc",
};

async function phone(server: Served) {
  const context = await (await getBrowser()).newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    locale: "pt-BR",
    userAgent: UA,
  });
  const checkouts: string[] = [];
  await context.route("https://app.zapflow.com.br/**", async (route) => {
    checkouts.push(route.request().url());
    await route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>ok</title>ok",
    });
  });
  const page = await context.newPage();
  await throttle(page);
  return { context, page, checkouts, base: server.baseUrl };
}

/** A phone on the home page from the campaign link, its scripts running; closed after `use`. */
async function onHydratedHome(use: (v: Awaited<ReturnType<typeof phone>>) => Promise<void>) {
  const server = await serveApp();
  const v = await phone(server);
  try {
    await v.page.goto(v.base + "/pt-br" + LANDING);
    await v.page.waitForSelector("html[data-hydrated=true]", { timeout: 60_000 });
    await use(v);
  } finally {
    await v.context.close();
    await server.close();
  }
}

/**
 * Where a finger lands on `target`: scrolled to the middle of the screen, clear of the phone bar, and measured
 * once nothing above it moves any more (sections near the screen render as it scrolls, so the point must be
 * the same twice and hit the target). A tap at a point taken before that lands on whatever moved there.
 */
async function fingerPoint(target: Locator) {
  let last = "";
  const { x, y } = await waitFor(
    async () => {
      const p = await target.evaluate((a) => {
        a.scrollIntoView({ block: "center" });
        const box = a.getBoundingClientRect();
        const p = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
        return { ...p, hit: document.elementFromPoint(p.x, p.y)?.closest("a, button") === a };
      });
      const same = `${p.x},${p.y}` === last;
      last = `${p.x},${p.y}`;
      return { ...p, settled: p.hit && same };
    },
    (p) => p.settled,
    10_000,
  );
  return { x, y };
}

/** A finger's tap at `point`: down, 80 ms, up (a quick tap, far from a long press). */
async function fingerTap(v: { context: BrowserContext; page: Page }, point: { x: number; y: number }) {
  const cdp = await v.context.newCDPSession(v.page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await v.page.waitForTimeout(80);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

async function fillAndSubmit(page: Page) {
  await page.fill("#lead-name", "Maria Lenta");
  await page.fill("#lead-email", "maria@example.com");
  await page.fill("#lead-whatsapp", "+55 11 91234-5678");
  await page.locator("dialog[open] button[type=submit]").tap();
}

browserTest(
  "slow phone: a tap before the scripts run is held and opens the dialog once they do",
  async () => {
    const server = await serveApp();
    const v = await phone(server);
    try {
      // The bootstrap is held back until the tap has happened: the race of a real slow phone, made certain.
      let release!: () => void;
      const held = new Promise<void>((r) => release = r);
      await v.page.route("**/assets/site-*.js", async (route) => {
        await held;
        await route.continue();
      });
      // (Not "domcontentloaded": that waits for the module script.)
      await v.page.goto(v.base + "/pt-br" + LANDING, { waitUntil: "commit" });
      const button = v.page.locator("#precos a[data-lead]").nth(1);
      await button.waitFor({ timeout: 60_000 });
      await fingerTap(v, await fingerPoint(button));
      // Pressed (the click comes once the page has handled the touchend), and still on the page: the link did
      // not leave for the checkout.
      await waitFor(() => button.getAttribute("aria-busy"), (busy) => busy === "true", 10_000);
      assert.equal(await v.page.evaluate(() => document.documentElement.dataset.hydrated), undefined);
      assert.deepEqual(v.checkouts, []);
      release();
      const dialog = v.page.getByRole("dialog", { name: "Assinar o plano Pro" });
      await dialog.waitFor({ timeout: 60_000 });
      assert.equal(await v.page.evaluate(() => document.activeElement?.id), "lead-name");
      assert.equal(await button.getAttribute("aria-busy"), null, "no longer busy once the dialog is up");
      await fillAndSubmit(v.page);
      await waitFor(() => Promise.resolve(v.checkouts.length), (n) => n === 1, 30_000);
      const url = new URL(v.checkouts[0]);
      assert.equal(url.pathname, "/checkout/pro");
      assert.deepEqual(Object.fromEntries(url.searchParams), ORIGIN);
      const clicks = await waitFor(
        () =>
          server.db.query<{ source: string; utm_source: string }>("select source, utm_source from clicks"),
        (rows) => rows.length === 1,
        15_000,
      );
      assert.deepEqual(clicks, [{ source: "pricing_pro_plan", utm_source: "facebook" }]);
      const leads = await server.db.query<{ plan: string; utm_source: string }>(
        "select plan, utm_source from leads",
      );
      assert.deepEqual(leads, [{ plan: "pro", utm_source: "facebook" }]);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "slow phone: a plan button looks pressed while the finger is down, and not after a scroll starts on it",
  () =>
    onHydratedHome(async (v) => {
      const button = v.page.locator("#precos a[data-lead]").nth(0);
      const point = await fingerPoint(button);
      const cdp = await v.context.newCDPSession(v.page);
      const touch = (type: "touchStart" | "touchCancel", points = [point]) =>
        cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points });
      const pressed = () => button.evaluate((a) => a.classList.contains("is-pressed"));
      // The finger is down, nothing else yet: the button already shows it, before any click.
      await touch("touchStart");
      await waitFor(pressed, (p) => p, 10_000);
      assert.equal(await button.getAttribute("aria-busy"), null, "no click yet");
      // The finger moves away to scroll: the browser cancels the pointer, and the look goes.
      await touch("touchCancel", []);
      await waitFor(pressed, (p) => !p, 10_000);
      assert.equal(await v.page.locator("dialog[open]").count(), 0);
    }),
);

browserTest(
  "slow phone: a plan tap shows it was pressed, the dialog locks the page and tells the next step",
  () =>
    onHydratedHome(async (v) => {
      // What the button shows in the very task of the tap (after the page's own click listeners).
      await v.page.evaluate(() => {
        addEventListener("click", (e) => {
          const a = (e.target as Element).closest("a[data-lead]");
          if (a) (globalThis as unknown as { pressed: string | null }).pressed = a.getAttribute("aria-busy");
        });
      });
      // The dialog's code held back until the click has been seen: the tap must answer on its own while that
      // code is on its way. (Scrolling to the plans fetches it; once it is in, the click opens the dialog in
      // its own task and the pressed state is gone before the listener above runs: the last test's case.)
      let release!: () => void;
      const held = new Promise<void>((r) => release = r);
      await v.page.route("**/assets/chunk-*.js", async (route) => {
        await held;
        await route.continue().catch(() => {});
      });
      const button = v.page.locator("#precos a[data-lead]").nth(0);
      await fingerTap(v, await fingerPoint(button));
      // The browser makes the click from the touch once the page has handled the touchend, which can come
      // after fingerTap returns on a busy machine: wait for that click, then look at what it saw.
      await v.page.waitForFunction(() => "pressed" in globalThis, undefined, { timeout: 10_000 });
      release();
      assert.equal(
        await v.page.evaluate(() => (globalThis as unknown as { pressed: string }).pressed),
        "true",
      );
      const dialog = v.page.getByRole("dialog", { name: "Assinar o plano Micro" });
      await dialog.waitFor({ timeout: 60_000 });
      assert.equal(await v.page.evaluate(() => document.activeElement?.id), "lead-name");
      assert.match(await dialog.locator("#lead-description").innerText(), /teste grátis de 7 dias/);
      // The page behind does not scroll while the dialog is open (locked in the task after its first frame).
      const before = await v.page.evaluate(() => scrollY);
      await waitFor(
        () => v.page.evaluate(() => getComputedStyle(document.documentElement).overflow),
        (overflow) => overflow === "hidden",
        10_000,
      );
      await v.page.mouse.move(195, 100);
      // The wheel reached the page, and three frames passed: a scroll it started would have moved by then.
      const wheeled = v.page.evaluate(() =>
        new Promise<void>((done) => addEventListener("wheel", () => done(), { once: true, passive: true }))
      );
      await v.page.mouse.wheel(0, 400);
      await wheeled;
      await v.page.evaluate(() =>
        new Promise((done) =>
          requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done)))
        )
      );
      assert.equal(await v.page.evaluate(() => scrollY), before);
      await dialog.getByRole("button", { name: "Cancelar" }).tap();
      await dialog.waitFor({ state: "hidden" });
      assert.notEqual(
        await v.page.evaluate(() => getComputedStyle(document.documentElement).overflow),
        "hidden",
      );
      // The specialist's privacy line speaks of the specialist, not of a subscription.
      await v.page.getByRole("button", { name: "Falar com um especialista" }).tap();
      const specialist = v.page.getByRole("dialog", { name: "Falar com um especialista" });
      await specialist.waitFor({ timeout: 60_000 });
      const privacy = await specialist.locator(".lead-privacy:not([hidden])").innerText();
      assert.doesNotMatch(privacy, /assinatura/i);
      assert.match(privacy, /especialista/);
      // The plan's line is the other one.
      assert.equal(await specialist.locator(".lead-privacy").count(), 2);
    }),
);

browserTest(
  "slow phone: a finger's tap opens the dialog in the click's own task, the name field focused by the dialog " +
    "(not on page load), and the click is counted once it is up",
  () =>
    onHydratedHome(async (v) => {
      // The name field's `autofocus` belongs to the dialog: the page itself opens unfocused, at its top.
      assert.equal(await v.page.evaluate(() => document.activeElement?.tagName), "BODY");
      assert.equal(await v.page.evaluate(() => scrollY), 0);
      const button = v.page.locator("#precos a[data-lead]").nth(1);
      await button.scrollIntoViewIfNeeded();
      // The plans near the screen fetched the dialog's code, and the idle page wired it (a visitor reading).
      await v.page.waitForSelector("dialog[data-wired=true]", { state: "attached", timeout: 60_000 });
      // Whether the dialog is open in the first task after the click: with the pressed look painted while the
      // finger was down, the dialog does not wait for another frame.
      await v.page.evaluate(() => {
        addEventListener("click", () => {
          setTimeout(() => {
            (globalThis as unknown as { openAfterClick: boolean }).openAfterClick =
              document.querySelector("dialog[open]") !== null;
          });
        }, { once: true });
      });
      const clicks: string[] = [];
      v.page.on("request", (r) => {
        if (new URL(r.url()).pathname === "/api/tracking/click") clicks.push(r.postData() ?? "");
      });
      await fingerTap(v, await fingerPoint(button));
      const dialog = v.page.getByRole("dialog", { name: "Assinar o plano Pro" });
      await dialog.waitFor({ timeout: 60_000 });
      assert.equal(
        await v.page.evaluate(() => (globalThis as unknown as { openAfterClick?: boolean }).openAfterClick),
        true,
      );
      assert.equal(await v.page.evaluate(() => document.activeElement?.id), "lead-name");
      await waitFor(() => Promise.resolve(clicks.length), (n) => n > 0, 30_000);
      assert.equal(clicks.length, 1, clicks.join("\n"));
      assert.match(clicks[0], /pro/i);
    }),
);
