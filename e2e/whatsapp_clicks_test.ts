// WhatsApp clicks (issue 29, items 3 and 6) in a real browser: every WhatsApp button and link of the public
// pages, in pt, en and es, is counted once in the site's own tracking, with no tag manager at all and with one
// (and the pixel) configured; the pixel gets Meta's standard Contact only once it runs (consent); the pricing
// buttons that lead to WhatsApp after the lead form stay plan clicks. Then the dashboard: a one-day period is
// drawn hour by hour with the hour under way dashed, and each series can be hidden and shown again.
import assert from "node:assert/strict";
import type { BrowserContext, Page, Request } from "playwright-core";
import {
  browserTest,
  getBrowser,
  openPage,
  screenshot,
  serveApp,
  type Served,
  UPDATE_SCREENSHOTS,
} from "./browser.ts";
import { requestsSeen, UA, waitFor } from "./visitor.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { todayIn } from "../src/shared/dashboard_math.ts";
import { sp } from "../testing/analytics_fixture.ts";

/** The public pages with WhatsApp buttons: the home page's final call to action, the Pipefy page's contact. */
const PAGES = [
  "/pt-br",
  "/en",
  "/es",
  "/pt-br/pipefy-whatsapp-integracao",
  "/en/pipefy-whatsapp-integracao",
  "/es/pipefy-whatsapp-integracao",
];
const WHATSAPP_LINKS = 'a[href*="//wa.me/"]:not([data-lead])';

// Stands in for fbevents.js: records every fbq call, queued ones included.
const FAKE_FBEVENTS =
  `(function(){var f=window.fbq;window.__fb=(f.queue||[]).map(function(a){return Array.from(a)});
f.callMethod=function(){window.__fb.push(Array.from(arguments))};})();`;

async function visitor(): Promise<{ context: BrowserContext; page: Page; metaPosts: string[] }> {
  const context = await (await getBrowser()).newContext({
    viewport: { width: 1366, height: 900 },
    locale: "pt-BR",
    userAgent: UA,
  });
  await context.route("https://wa.me/**", (route) => route.fulfill({ status: 200, body: "whatsapp" }));
  await context.route(
    "https://connect.facebook.net/**",
    (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_FBEVENTS }),
  );
  await context.route(
    "https://www.googletagmanager.com/**",
    (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "window.__gtm=true;" }),
  );
  const page = await context.newPage();
  const metaPosts: string[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/api/meta/event")) metaPosts.push(req.postData() ?? "");
  });
  return { context, page, metaPosts };
}

async function land(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
}

async function clickCounts(server: Served): Promise<{ plan: number; whatsapp: number; pages: string[] }> {
  const rows = await server.db.query<{ kind: string; source: string }>(
    "select kind, source from clicks order by id",
  );
  return {
    plan: rows.filter((r) => r.kind === "plan").length,
    whatsapp: rows.filter((r) => r.kind === "whatsapp").length,
    pages: rows.filter((r) => r.kind === "whatsapp").map((r) => r.source),
  };
}

/** Clicks every WhatsApp link of the page (each opens WhatsApp in a new tab) and checks each counts once. */
async function clickEach(server: Served, page: Page, path: string, expected: string[]): Promise<number> {
  // The links a visitor can see at this width (the phone bar's is there on phones only).
  const links = page.locator(WHATSAPP_LINKS).locator("visible=true");
  const n = await links.count();
  const sent = clicksSent(page);
  for (let i = 0; i < n; i++) {
    const before = await clickCounts(server);
    const link = links.nth(i);
    await link.scrollIntoViewIfNeeded();
    const [tab] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
    // The navigation to WhatsApp happened (not held back by the tracking request).
    await tab.waitForLoadState("domcontentloaded");
    assert.match(tab.url(), /^https:\/\/wa\.me\//);
    await tab.close();
    const after = await waitFor(() => clickCounts(server), (c) => c.whatsapp > before.whatsapp);
    // Once: every request the page started by now has been seen, and it sent one WhatsApp click, no plan click.
    await requestsSeen(page);
    assert.deepEqual(sent.kinds.splice(0), ["whatsapp"], `${path} link ${i}: one click sent`);
    const settled = await clickCounts(server);
    assert.equal(settled.whatsapp, before.whatsapp + 1, `${path} link ${i}: counted once`);
    assert.equal(settled.plan, before.plan, `${path} link ${i}: not a plan click`);
    assert.equal(after.pages.at(-1), path);
    expected.push(path);
  }
  sent.stop();
  return n;
}

/** The kinds of the clicks the page sends to the tracking endpoint from now on, in order ("plan" by default). */
function clicksSent(page: Page): { kinds: string[]; stop(): void } {
  const kinds: string[] = [];
  const listen = (req: Request) => {
    if (new URL(req.url()).pathname !== "/api/tracking/click") return;
    kinds.push((JSON.parse(req.postData() ?? "{}") as { kind?: string }).kind ?? "plan");
  };
  page.on("request", listen);
  return { kinds, stop: () => page.off("request", listen) };
}

browserTest(
  "whatsapp: every WhatsApp button of the public pages is counted once, without any tag manager",
  async () => {
    const server = await serveApp({ CONSENT_MODE: "none" });
    const v = await visitor();
    try {
      const expected: string[] = [];
      for (const path of PAGES) {
        await land(v.page, server.baseUrl + path);
        const n = await clickEach(server, v.page, path, expected);
        assert.ok(n >= 1, `${path}: has a WhatsApp button`);
      }
      assert.deepEqual((await clickCounts(server)).pages, expected);
      // Without a pixel nothing goes to Meta, and no tag manager ran.
      assert.deepEqual(v.metaPosts, []);
      assert.equal(await v.page.evaluate(() => "__gtm" in globalThis || "fbq" in globalThis), false);

      // The specialist's pricing button leads to WhatsApp after the lead form: a plan click, not a WhatsApp one.
      await land(v.page, server.baseUrl + "/pt-br");
      const before = await clickCounts(server);
      const specialist = v.page.locator('a[data-lead][href*="//wa.me/"]').first();
      await specialist.scrollIntoViewIfNeeded();
      const sent = clicksSent(v.page);
      await specialist.click();
      await waitFor(() => clickCounts(server), (c) => c.plan === before.plan + 1);
      await requestsSeen(v.page);
      sent.stop();
      assert.deepEqual(sent.kinds, ["plan"]);
      assert.equal((await clickCounts(server)).whatsapp, before.whatsapp);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "whatsapp: with the tag manager and pixel configured, counted once; pixel Contact only after consent",
  async () => {
    const server = await serveApp({ META_PIXEL_ID: "123456789012345", GTM_ID: "GTM-TEST12" });
    const v = await visitor();
    const fbCalls = () =>
      v.page.evaluate(() => (globalThis as { __fb?: unknown[][] }).__fb ?? null) as Promise<
        unknown[][] | null
      >;
    try {
      const expected: string[] = [];
      // Before any choice the banner is up and no third party runs: the click is still counted, and no Contact.
      await land(v.page, server.baseUrl + "/es/pipefy-whatsapp-integracao");
      const banner = v.page.locator(".consent-banner");
      await banner.getByRole("button", { name: /Rechazar/i }).click();
      await clickEach(server, v.page, "/es/pipefy-whatsapp-integracao", expected);
      assert.equal(await fbCalls(), null, "no pixel before consent");

      // Accepted: GTM and the pixel load; each click is still counted once, and the pixel gets Contact.
      await v.page.evaluate(() => localStorage.setItem("zapflow.consent", "granted"));
      for (const path of ["/pt-br", "/en/pipefy-whatsapp-integracao"]) {
        await land(v.page, server.baseUrl + path);
        await waitFor(fbCalls, (calls) => calls !== null, 10_000);
        await waitFor(() => v.page.evaluate(() => "__gtm" in globalThis), (ok) => ok, 10_000);
        const n = await clickEach(server, v.page, path, expected);
        const contacts = (await fbCalls())!.filter((c) => c[0] === "track" && c[1] === "Contact");
        assert.equal(contacts.length, n, `${path}: one Contact per click`);
        assert.match(String((contacts[0][3] as { eventID: string }).eventID), /^contact_\d+_[a-z0-9]{9}$/);
        const layer = await v.page.evaluate(() =>
          (globalThis as { dataLayer?: { event?: string }[] }).dataLayer
        );
        assert.ok(layer?.some((e) => e.event === "channel_click"), "the tag manager's event is still pushed");
      }
      assert.deepEqual((await clickCounts(server)).pages, expected);
      // The server-side event endpoint is not asked for a click: it can verify only stored leads.
      assert.deepEqual(v.metaPosts, []);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

async function signIn(page: Page) {
  await page.getByLabel("E-mail", { exact: true }).fill("dono@zapflow.com.br");
  await page.getByLabel("Senha", { exact: true }).fill("senha-forte-123");
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 10_000 });
}

async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
    timeout: 30_000,
  });
  await page.locator("[data-testid=chart] canvas").waitFor({ timeout: 20_000 });
}

// The seed's, the server's and the browser's clock for the dashboard: 21 November 2026, 14:30 in São Paulo.
// With the real clock, in the first minutes after midnight today had next to no data (the axis did not
// change when the visitors were hidden), and a run across midnight read another "today".
const NOW = sp("2026-11-21T14:30:00");

const yMax = (page: Page) =>
  page.getByTestId("chart").evaluate((el) => Number((el as HTMLElement).dataset.yMax));

browserTest(
  "whatsapp: the dashboard draws today by the hour (the hour under way dashed) and hides series",
  async () => {
    const server = await serveApp({}, { now: () => NOW });
    try {
      await bootstrapAdmin(server.db, "dono@zapflow.com.br", "senha-forte-123");
      const seeded = await seedAnalytics(server.db, { days: 3, visits: 6_000, now: NOW });
      assert.ok(seeded.whatsappClicks > 0, "the seed has WhatsApp clicks");
      for (const [width, height] of [[1366, 900], [390, 844]]) {
        const { page, problems, close } = await openPage(server.baseUrl, { width, height });
        try {
          await page.clock.setFixedTime(NOW);
          await page.goto(server.baseUrl + "/pt-br/admin");
          await signIn(page);
          await settled(page);
          // The month: one point per day, WhatsApp clicks as a series and as a card.
          const chart = page.getByTestId("chart");
          assert.equal(await chart.getAttribute("data-unit"), "dia");
          const toggles = page.locator(".chart-toggle");
          assert.deepEqual(await toggles.allInnerTexts(), [
            "Leads",
            "Cliques nos planos",
            "Cliques no WhatsApp",
            "Visitantes únicos",
            "Taxa de conversão (%)",
          ]);
          const card = await page.getByTestId("whatsapp-clicks").innerText();
          assert.match(card, /^\d[\d.]*$/);

          // Today: 24 hourly points in São Paulo, the hour under way partial, later hours not drawn.
          await page.getByRole("button", { name: "Hoje", exact: true }).click();
          await page.locator("[data-testid=chart][data-unit=hora]").waitFor({ timeout: 20_000 });
          await settled(page);
          const today = todayIn("America/Sao_Paulo", NOW);
          const hourly = await page.evaluate(
            async (d) => (await fetch(`/api/tracking/hourly?date=${d}`)).json(),
            today,
          );
          assert.equal(hourly.hours.length, 24);
          assert.equal((await chart.getAttribute("data-days"))!.split(" ").length, 24);
          const partial = hourly.hours.findIndex((h: { state: string }) => h.state === "partial");
          assert.ok(partial >= 0, "an hour is under way");
          assert.equal(await chart.getAttribute("data-partial"), hourly.hours[partial].start);
          assert.ok(
            hourly.hours.slice(partial + 1).every((h: { visits: number | null }) => h.visits === null),
          );
          await page.getByTestId("chart-partial-note").waitFor();
          assert.equal(await page.locator("#chart-title").innerText(), "Evolução por hora");

          // Hiding the unique visitors lets the left axis fit the smaller series; showing them puts it back.
          const full = await yMax(page);
          const visitors = page.locator(".chart-toggle[data-series=visits]");
          await visitors.click();
          assert.equal(await visitors.getAttribute("aria-pressed"), "false");
          await page.locator("[data-testid=chart][data-hidden=visits]").waitFor();
          const without = await waitFor(() => yMax(page), (m) => m < full);
          assert.ok(without < full, `axis ${full} -> ${without}`);
          if (UPDATE_SCREENSHOTS) {
            // The sign-in toast (5 s) is gone before the picture.
            await page.getByTestId("toast").waitFor({ state: "hidden", timeout: 10_000 });
            await screenshot(page.locator("#chart"), `admin-hourly-${width}.png`);
          }
          await visitors.click();
          assert.equal(await visitors.getAttribute("aria-pressed"), "true");
          await waitFor(() => yMax(page), (m) => m === full);
          // The WhatsApp series can be hidden too.
          const wa = page.locator(".chart-toggle[data-series=whatsappClicks]");
          await wa.click();
          await page.locator("[data-testid=chart][data-hidden=whatsappClicks]").waitFor();
          await screenshot(page.locator("#whatsapp"), `admin-whatsapp-card-${width}.png`);
          assert.deepEqual(problems, { consoleErrors: [], failedRequests: [] });
        } finally {
          await close();
        }
      }
    } finally {
      await server.close();
    }
  },
);
