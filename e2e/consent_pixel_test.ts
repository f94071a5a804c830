// Consent and the third-party scripts: the Meta pixel and the tag manager load only after acceptance (opt-in
// mode), the choice is remembered and reopened from the footer, and the pixel's Lead eventID is the
// event_id the server queues for the Conversions API. External hosts are served by page.route fakes.
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { browserTest, getBrowser, screenshot, serveApp } from "./browser.ts";
import { listMetaEvents } from "../testing/meta_outbox.ts";
import { outboxFlushed, waitFor, watchOutbox } from "./visitor.ts";
import type { Db } from "../src/db/client.ts";

const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const META_ENV = {
  META_PIXEL_ID: "123456789012345",
  META_ACCESS_TOKEN: "token",
  META_GRAPH_URL: "http://127.0.0.1:9/v26.0",
  GTM_ID: "GTM-TEST12",
};
/** The pixel's Lead data for the Premium plan: its monthly price as the value, in BRL. */
const PREMIUM_LEAD = { content_name: "Premium", content_category: "pricing", value: 497, currency: "BRL" };
// Stands in for fbevents.js: records every fbq call, queued ones included.
const FAKE_FBEVENTS =
  `(function(){var f=window.fbq;window.__fb=(f.queue||[]).map(function(a){return Array.from(a)});
f.callMethod=function(){window.__fb.push(Array.from(arguments))};})();`;

async function visitor() {
  const context: BrowserContext = await (await getBrowser()).newContext({
    viewport: { width: 1366, height: 900 },
    locale: "pt-BR",
    userAgent: UA,
  });
  await watchOutbox(context);
  const thirdParty: string[] = [];
  await context.route("https://connect.facebook.net/**", (route) => {
    thirdParty.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_FBEVENTS });
  });
  await context.route("https://www.googletagmanager.com/**", (route) => {
    thirdParty.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/javascript", body: "window.__gtm=true;" });
  });
  await context.route("https://app.zapflow.com.br/**", (route) => route.fulfill({ status: 200, body: "ok" }));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, thirdParty, errors };
}

async function land(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
}

/** Waits until `fn` holds; fails the test if it still does not after `ms`. */
function until(fn: () => Promise<boolean>, ms = 8000): Promise<boolean> {
  return waitFor(fn, (ok) => ok, ms);
}

browserTest(
  "consent: pixel and tag manager wait for acceptance; the choice is remembered and reopened from the footer",
  async () => {
    const server = await serveApp(META_ENV);
    const v = await visitor();
    try {
      await land(v.page, server.baseUrl + "/pt-br/");
      const banner = v.page.getByRole("region", { name: "Sua privacidade" });
      await banner.waitFor();
      await screenshot(v.page, "consent-1366.png");
      await banner.getByRole("button", { name: "Recusar" }).click();
      await banner.waitFor({ state: "hidden" });
      await land(v.page, server.baseUrl + "/pt-br/clientes");
      // The page decides on the third parties before it flushes the outbox: had it started them, the pixel's
      // queue and the tag manager's first entry would be there by now (their scripts come when idle).
      await outboxFlushed(v.page);
      assert.equal(await banner.count(), 0, "a refusal is remembered");
      assert.deepEqual(
        await v.page.evaluate(() => {
          const w = globalThis as unknown as { fbq?: unknown; dataLayer?: Record<string, unknown>[] };
          return { fbq: typeof w.fbq, gtm: (w.dataLayer ?? []).some((e) => e.event === "gtm.js") };
        }),
        { fbq: "undefined", gtm: false },
        "neither the pixel nor the tag manager started",
      );
      assert.equal(v.thirdParty.length, 0, "nothing third-party before acceptance");

      await v.page.getByRole("button", { name: "Preferências de privacidade" }).click();
      await banner.getByRole("button", { name: "Aceitar" }).click();
      await until(() => Promise.resolve(v.thirdParty.length >= 2));
      assert.ok(v.thirdParty.some((u) => u.startsWith("https://connect.facebook.net/")));
      assert.ok(v.thirdParty.some((u) => u === "https://www.googletagmanager.com/gtm.js?id=GTM-TEST12"));
      await until(() => v.page.evaluate(() => Array.isArray((globalThis as { __fb?: unknown }).__fb)));
      const calls = await v.page.evaluate(() => (globalThis as unknown as { __fb: unknown[][] }).__fb);
      assert.deepEqual(calls.slice(0, 2), [["init", META_ENV.META_PIXEL_ID], ["track", "PageView"]]);

      // Accepted is remembered too: the next page starts the pixel by itself.
      v.thirdParty.length = 0;
      await land(v.page, server.baseUrl + "/pt-br/");
      await until(() => Promise.resolve(v.thirdParty.length >= 2));
      assert.equal(await banner.count(), 0);
      assert.ok(v.thirdParty.some((u) => u.startsWith("https://connect.facebook.net/")));
      assert.deepEqual(v.errors, []);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "meta: the pixel's Lead eventID is the event_id queued for the Conversions API, with hashed e-mail and phone",
  async () => {
    const server = await serveApp({ ...META_ENV, CONSENT_MODE: "none" });
    const v = await visitor();
    try {
      await land(v.page, server.baseUrl + "/pt-br/?fbclid=IwAR0abcDEF");
      assert.equal(
        await v.page.getByRole("region", { name: "Sua privacidade" }).count(),
        0,
        "no banner in none mode",
      );
      assert.equal(
        await v.page.getByRole("button", { name: "Preferências de privacidade" }).count(),
        0,
        "no cookie preferences when nothing waits for consent",
      );
      await until(() => v.page.evaluate(() => Array.isArray((globalThis as { __fb?: unknown }).__fb)));
      await v.page.getByRole("button", { name: "Assinar agora (Premium)" }).click();
      const dialog = v.page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("Pedro");
      await dialog.getByLabel("E-mail").fill("Pedro@Example.com");
      await dialog.getByLabel("WhatsApp").fill("(21) 99876-5432");
      // The server's answer to the browser's event, read through the route: the page goes on to checkout
      // 800 ms after the lead, and on a loaded machine that can come before the answer (the page then never
      // sees it, and waiting for the page's response timed out once in CI).
      let metaStatus = 0;
      await v.context.route("**/api/meta/event", async (route) => {
        const res = await route.fetch();
        metaStatus = res.status();
        await route.fulfill({ response: res }).catch(() => {});
      });
      await dialog.getByRole("button", { name: "Continuar" }).click();
      // The pixel's Lead call, read as soon as it is made: 800 ms later the page leaves for the checkout, and
      // a read after the server's answer found the next page there once in CI (no `__fb` at all).
      const lead = await v.page.waitForFunction(() =>
        (globalThis as unknown as { __fb: unknown[][] }).__fb.find((c) => c[0] === "track" && c[1] === "Lead")
      ).then((handle) => handle.jsonValue()) as [string, string, unknown, { eventID: string }];
      await waitFor(() => Promise.resolve(metaStatus), (status) => status !== 0, 30_000);
      assert.equal(metaStatus, 202);
      assert.ok(lead);
      assert.match(lead[3].eventID, /^lead_\d{13}_[a-z0-9]+$/);
      assert.deepEqual(lead[2], PREMIUM_LEAD);
      const events = await listMetaEvents(server.db);
      assert.equal(events.length, 1, "the lead and the browser's event are one outbox row");
      assert.equal(events[0].eventId, lead[3].eventID);
      const user = (events[0].payload as { user_data: Record<string, unknown> }).user_data;
      const hex = async (s: string) =>
        Array.from(
          new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))),
          (b) => b.toString(16).padStart(2, "0"),
        ).join("");
      assert.deepEqual(user.em, [await hex("pedro@example.com")]);
      assert.deepEqual(user.ph, [await hex("5521998765432")]);
      assert.equal(user.client_user_agent, UA);
      assert.match(String(user.fbc), /^fb\.1\.\d{13}\.IwAR0abcDEF$/);
      assert.deepEqual(v.errors, []);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "outbox: a lead delivered on a later page load sends its conversion once (tracking and pixel Lead with the " +
    "plan's price in BRL), with its original session, UTM and submission time",
  async () => {
    const server = await serveApp({ ...META_ENV, CONSENT_MODE: "none" });
    const v = await visitor();
    try {
      await v.context.route(
        "**/api/leads",
        (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"x"}' }),
      );
      await land(v.page, server.baseUrl + "/pt-br/?utm_source=news&utm_campaign=nov&utm_medium=email");
      await until(() => v.page.evaluate(() => Array.isArray((globalThis as { __fb?: unknown }).__fb)));
      const session = await v.page.evaluate(() => sessionStorage.getItem("zapflow.sessionId"));
      await v.page.getByRole("button", { name: "Assinar agora (Premium)" }).click();
      const dialog = v.page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("Lia");
      await dialog.getByLabel("E-mail").fill("lia@example.com");
      await dialog.getByLabel("WhatsApp").fill("(11) 91111-2222");
      const submittedAt = Date.now();
      await dialog.getByRole("button", { name: "Continuar" }).click();
      await v.page.waitForURL(/^https:\/\/app\.zapflow\.com\.br\//);
      const redirectedAt = Date.now(); // the lead was submitted between the click and here
      const failedPage = await v.context.newPage(); // a new tab: a new browser session, same local storage
      await failedPage.goto(server.baseUrl + "/pt-br/clientes?x=1");
      const outbox = await failedPage.evaluate(() => localStorage.getItem("zapflow.leadOutbox"));
      assert.ok(outbox, "the lead waits in the outbox");
      assert.equal((await server.db.query("select id from conversions")).length, 0, "no conversion yet");
      await failedPage.close();

      // Later, in another tab (another session): the server is back and the outbox delivers. 1.5 s later, so
      // that a lead stored with its delivery time instead of its submission time fails the check below.
      await new Promise((r) => setTimeout(r, 1500));
      await v.context.unroute("**/api/leads");
      const later = await v.context.newPage();
      await land(later, server.baseUrl + "/pt-br/clientes");
      const conversions = await waitRows(
        server.db,
        "select source, session_id, utm_source from conversions",
        1,
      );
      assert.deepEqual(conversions, [{
        source: "pricing_premium_plan",
        session_id: session,
        utm_source: "news",
      }]);
      const [lead] = await server.db.query<{ submitted_at: Date }>("select submitted_at from leads");
      const at = new Date(lead.submitted_at).getTime();
      // Between the click and the checkout (a loaded machine took 1.1 s to run the click), never at the
      // delivery, 1.5 s or more after the checkout; 250 ms of slack for the two clocks' readings.
      assert.ok(
        at >= submittedAt - 250 && at <= redirectedAt + 250,
        `stored with the submission time: ${at - submittedAt} ms after the click, ${redirectedAt - at} ms ` +
          "before the checkout",
      );
      await until(() =>
        later.evaluate(() =>
          ((globalThis as unknown as { __fb?: unknown[][] }).__fb ?? []).some((c) => c[1] === "Lead")
        )
      );
      const calls = await later.evaluate(() => (globalThis as unknown as { __fb: unknown[][] }).__fb);
      const leadCalls = calls.filter((c) => c[0] === "track" && c[1] === "Lead");
      assert.equal(leadCalls.length, 1, JSON.stringify(calls));
      assert.deepEqual(leadCalls[0][2], PREMIUM_LEAD);
      const events = await listMetaEvents(server.db);
      assert.equal(events.length, 1, "the lead's server event and the pixel's share one id");
      assert.equal(events[0].eventId, (leadCalls[0][3] as { eventID: string }).eventID);
      const layer = await later.evaluate(() =>
        (globalThis as unknown as { dataLayer: { event: string }[] }).dataLayer.map((e) => e.event)
      );
      assert.equal(layer.filter((e) => e === "lead_capture").length, 1);

      // Nothing is sent twice: more page loads, no more conversions or Lead events.
      await land(later, server.baseUrl + "/pt-br/");
      await outboxFlushed(later);
      // The pixel loads after the outbox's flush on a busy machine: once it is there, it must have no Lead.
      await until(() => later.evaluate(() => Array.isArray((globalThis as { __fb?: unknown }).__fb)));
      assert.equal((await server.db.query("select id from conversions")).length, 1);
      assert.equal((await server.db.query("select id from leads")).length, 1);
      const again = await later.evaluate(() => (globalThis as unknown as { __fb: unknown[][] }).__fb);
      assert.equal(again.filter((c) => c[1] === "Lead").length, 0);
      assert.deepEqual(v.errors, []);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

async function waitRows<T = Record<string, unknown>>(db: Db, sql: string, n: number): Promise<T[]> {
  const end = Date.now() + 8000;
  let rows = await db.query<T>(sql);
  while (rows.length < n && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    rows = await db.query<T>(sql);
  }
  return rows;
}
