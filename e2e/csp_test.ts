// Content Security Policy as a browser enforces it: zero violations on every public page in all three
// languages, the 404 page, the admin sign-in and the signed-in dashboard, while the visitor opens the lead
// modal and the Integrations dropdown, plays a YouTube facade and has accepted the Meta pixel and the tag
// manager. Their hosts are served by page.route stubs that, like the real loaders, inject a child script,
// load a tracking image and send a beacon: the children only run if 'strict-dynamic' passes trust on.
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { browserTest, getBrowser, serveApp, type Served } from "./browser.ts";
import { SITE_PAGES } from "./site_fixtures.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { daysInclusive, monthOf, todayIn } from "../src/shared/dashboard_math.ts";

const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const ENV = { META_PIXEL_ID: "123456789012345", GTM_ID: "GTM-TEST12" };
const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";

// fbevents.js stand-in: takes over the queue, then does what the real one does next.
const FB_LOADER = `(function(){
  var f = window.fbq; f.callMethod = function(){}; window.__fbLoader = true;
  var s = document.createElement("script");
  s.src = "https://connect.facebook.net/signals/config/${ENV.META_PIXEL_ID}?v=2.9";
  document.head.appendChild(s);
  new Image().src = "https://www.facebook.com/tr/?id=${ENV.META_PIXEL_ID}&ev=PageView";
})();`;
const FB_CHILD = "window.__fbChild = true;";
// gtm.js stand-in: a container that loads gtag.js and sends a hit, as a GA4 tag does.
const GTM_LOADER = `(function(){
  window.__gtmLoader = true;
  var s = document.createElement("script");
  s.async = true;
  s.src = "https://www.googletagmanager.com/gtag/js?id=G-TEST123";
  document.head.appendChild(s);
})();`;
const GTM_CHILD = `window.__gtmChild = true;
navigator.sendBeacon("https://region1.google-analytics.com/g/collect?v=2&tid=G-TEST123");
new Image().src = "https://www.google-analytics.com/collect?v=1";`;
const GIF = Uint8Array.from(
  atob("R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="),
  (c) => c.charCodeAt(0),
);

// Runs before any page script: every violation the browser reports is kept on the window.
const LISTEN = `window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});`;

interface Visitor {
  context: BrowserContext;
  page: Page;
  /** Violations seen so far: console reports and `securitypolicyviolation` events, per page. */
  violations: string[];
  errors: string[];
}

async function visitor(): Promise<Visitor> {
  const context = await (await getBrowser()).newContext({
    viewport: { width: 1366, height: 900 },
    locale: "pt-BR",
    userAgent: UA,
  });
  await context.addInitScript(LISTEN);
  const js = (body: string) => ({ status: 200, contentType: "text/javascript", body });
  await context.route(
    "https://connect.facebook.net/**",
    (route) => route.fulfill(js(route.request().url().includes("/signals/") ? FB_CHILD : FB_LOADER)),
  );
  await context.route(
    "https://www.googletagmanager.com/**",
    (route) => route.fulfill(js(route.request().url().includes("/gtag/js") ? GTM_CHILD : GTM_LOADER)),
  );
  await context.route(
    /^https:\/\/([a-z0-9-]+\.)*(facebook\.com|google-analytics\.com)\//,
    (route) => route.fulfill({ status: 200, contentType: "image/gif", body: GIF as unknown as Buffer }),
  );
  await context.route(
    "https://www.youtube-nocookie.com/**",
    (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
  await context.route(
    "https://i.ytimg.com/**",
    (route) => route.fulfill({ status: 200, contentType: "image/gif", body: GIF as unknown as Buffer }),
  );
  const page = await context.newPage();
  const violations: string[] = [];
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, violations, errors };
}

/** Collects this page's violation events (call before leaving the page). */
async function collect(v: Visitor, label: string): Promise<void> {
  const events = await v.page.evaluate(() => (globalThis as unknown as { __csp: string[] }).__csp);
  for (const e of events) v.violations.push(`${label}: ${e}`);
}

async function land(v: Visitor, url: string) {
  await v.page.goto(url);
  await v.page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
}

/** Waits until both third-party loaders and their children ran (proof that 'strict-dynamic' works). */
async function thirdPartiesRan(v: Visitor, label: string) {
  await v.page.waitForFunction(
    () => {
      const w = globalThis as unknown as Record<string, boolean>;
      return w.__fbLoader && w.__fbChild && w.__gtmLoader && w.__gtmChild;
    },
    null,
    { timeout: 15_000 },
  ).catch(() => {
    throw new Error(`${label}: the pixel or tag manager (or a script they inject) did not run`);
  });
}

/**
 * Waits until what the page has started is over: its load event, fonts and images loaded, two frames drawn
 * (styles a script set have been applied), then one task more. A violation is reported as the browser
 * refuses the load or the style, so by then every one there would be is on the window.
 */
async function settled(page: Page) {
  await page.waitForLoadState("load");
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(
      Array.from(document.images, (img) => img.complete ? null : img.decode().catch(() => {})),
    );
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    // A task after the frames: violation events are queued as tasks.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

async function signIn(page: Page) {
  await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 15_000 });
}

async function seeded(server: Served) {
  await bootstrapAdmin(server.db, EMAIL, PASSWORD);
  const month = monthOf(todayIn("America/Sao_Paulo"));
  await seedAnalytics(server.db, {
    days: daysInclusive(month.start, todayIn("America/Sao_Paulo")),
    visits: 600,
  });
}

browserTest(
  "csp: no violation on any page, in any language, with the modal, dropdown, video, pixel and tag manager",
  async () => {
    const server = await serveApp(ENV);
    const v = await visitor();
    try {
      await seeded(server);
      // Consent first, on the home page: from then on every page starts the pixel and the tag manager.
      await land(v, server.baseUrl + "/pt-br/");
      const banner = v.page.getByRole("region", { name: "Sua privacidade" });
      await banner.getByRole("button", { name: "Aceitar" }).click();
      await thirdPartiesRan(v, "home after consent");

      // The interactive parts of the home page.
      await v.page.getByRole("button", { name: "Assinar agora (Pro)" }).click();
      await v.page.getByRole("dialog").waitFor();
      await v.page.keyboard.press("Escape");
      await v.page.getByRole("dialog").waitFor({ state: "hidden" });
      const toggle = v.page.locator(".dropdown-toggle").first();
      await toggle.click();
      await v.page.locator("#integrations-menu").waitFor({ state: "visible" });
      await v.page.locator(".video-poster").first().click();
      const player = v.page.locator("iframe[src^='https://www.youtube-nocookie.com/embed/']").first();
      await player.waitFor();
      // The player's document loaded (a frame-src refusal is reported instead of that).
      assert.equal(await player.contentFrame().locator("title").textContent({ timeout: 15_000 }), "player");
      await settled(v.page);
      await collect(v, "/pt-br/ (modal, dropdown, video)");

      for (const p of SITE_PAGES) {
        await land(v, server.baseUrl + p.path);
        await thirdPartiesRan(v, p.path);
        const poster = v.page.locator(".video-poster").first();
        if (await poster.count()) {
          await poster.click();
          await v.page.locator("iframe").first().waitFor();
        }
        await collect(v, p.path);
      }

      await v.page.goto(server.baseUrl + "/pt-br/pagina-que-nao-existe");
      await v.page.waitForLoadState("load");
      await collect(v, "404");

      // The last 30 days hold the seeded days whatever the date now: this month would be a new, empty one
      // (no chart) after a run across the last midnight of a month.
      await land(v, server.baseUrl + "/pt-br/admin?periodo=ultimos-30-dias");
      await v.page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
      await collect(v, "admin sign-in");
      await signIn(v.page);
      await v.page.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
        timeout: 20_000,
      });
      await v.page.locator("[data-testid=chart] canvas").first().waitFor({ timeout: 20_000 });
      await settled(v.page);
      await collect(v, "dashboard");

      console.log(
        `csp: ${SITE_PAGES.length + 4} pages and states checked, ${v.violations.length} violations`,
      );
      assert.deepEqual(v.violations, [], "CSP violations");
      assert.deepEqual(v.errors, [], "page errors");
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest("csp: the listener does see a violation (the test can fail)", async () => {
  const server = await serveApp();
  const v = await visitor();
  try {
    await land(v, server.baseUrl + "/pt-br/");
    // An image from a host the policy does not name, as injected markup would load it.
    await v.page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "https://evil.example/pixel.png";
      document.body.appendChild(img);
    });
    await v.page.waitForFunction(() => (globalThis as unknown as { __csp: string[] }).__csp.length > 0);
    await collect(v, "probe");
    assert.ok(v.violations.some((x) => x.includes("img-src")), v.violations.join("\n"));
  } finally {
    await v.context.close();
    await server.close();
  }
});
