// Stored markup is inert: leads and visits whose name, e-mail, WhatsApp, plan and UTM fields carry script
// and attribute payloads are seeded, and the dashboard (leads list, search, rankings, conversion by source)
// and the LGPD panel show them as literal text; no dialog ever opens. The CSV export carries them as text,
// formula cells neutralised.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, getBrowser, screenshot, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import type { Db } from "../src/db/client.ts";
import { insertLead } from "../src/db/leads.ts";
import { insertTrackedEvent } from "../testing/analytics_fixture.ts";

const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
// The server's and the browser's clock: 21 November 2026, 12:00 in São Paulo. With the real clock, "an hour
// ago" was last month in a month's first hour, and the dashboard (this month) showed none of the rows.
const NOW = FIXED_NOW;

const P = {
  name: `<script>alert("name")</script>`,
  email: `"><svg/onload=alert("email")>@x.co`,
  whatsapp: `<img src=x onerror=alert("wa")>`,
  plan: `<b onmouseover=alert("plan")>Pro</b>`,
  utmSource: `"><img src=x onerror=alert("source")>`,
  utmCampaign: `<svg onload=alert("campaign")>`,
  utmMedium: `javascript:alert("medium")`,
  page: `/pt-br?x="><script>alert("page")</script>`,
  formula: `=HYPERLINK("https://evil.example","abrir")`,
  bidi: "\u202Egnp.exe",
};

async function seed(db: Db) {
  await bootstrapAdmin(db, EMAIL, PASSWORD);
  const at = new Date(NOW.getTime() - 3_600_000);
  const lead = {
    idempotencyKey: null,
    plan: "pro" as const,
    page: P.page,
    submittedAt: at,
  };
  await insertLead(db, {
    ...lead,
    name: P.name,
    email: P.email,
    whatsapp: P.whatsapp,
    planLabel: P.plan,
    utmSource: P.utmSource,
    utmCampaign: P.utmCampaign,
    utmMedium: P.utmMedium,
  });
  await insertLead(db, {
    ...lead,
    name: P.formula,
    email: "planilha@example.com",
    whatsapp: "+55 11 90000-0000",
    planLabel: "Pro",
    utmSource: P.bidi,
    utmCampaign: null,
    utmMedium: null,
  });
  const event = {
    occurredAt: at,
    visitorKey: "k1",
    sessionId: "s1",
    source: P.page,
    utmSource: P.utmSource,
    utmCampaign: P.utmCampaign,
    utmMedium: P.utmMedium,
  };
  await insertTrackedEvent(db, "visits", { ...event, utmTerm: P.name, utmContent: P.whatsapp });
  await insertTrackedEvent(db, "visits", { ...event, visitorKey: "k2", utmSource: P.bidi });
  await insertTrackedEvent(db, "clicks", event);
  await insertTrackedEvent(db, "conversions", event);
}

async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
    timeout: 20_000,
  });
}

/**
 * Elements carrying event-handler attributes or the payloads' tags: there must be none. The page's own inline
 * scripts (the module loader and the early-tap handler, allowed by their CSP hashes) are not payloads.
 */
function liveMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("[onerror], [onload], [onmouseover], img[src='x'], script:not([src])")]
      .filter((e) =>
        !(e instanceof HTMLScriptElement &&
          (/^application\/(ld\+)?json$/.test(e.type) || /^import\("\/assets\/[\w.-]+\.js"\)$/.test(e.text) ||
            e.text.startsWith("(function(d,w){")))
      )
      .map((e) => e.outerHTML.slice(0, 120))
  );
}

browserTest(
  "hostile text: stored payloads are shown literally on the dashboard, no dialog fires",
  async () => {
    const server = await serveApp({}, { now: () => NOW });
    const context = await (await getBrowser()).newContext({
      viewport: { width: 1366, height: 900 },
      locale: "pt-BR",
      userAgent: UA,
    });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    try {
      await seed(server.db);
      await page.clock.setFixedTime(NOW);
      await page.goto(server.baseUrl + "/pt-br/admin");
      await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
      await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Entrar" }).click();
      await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 15_000 });
      await settled(page);

      // Leads list: every field as typed.
      const leads = page.locator("#leads .lead-list");
      for (const text of [P.name, P.email, P.whatsapp, P.plan, P.formula]) {
        assert.ok(
          await leads.getByText(text, { exact: true }).first().isVisible(),
          `leads list shows ${text}`,
        );
      }
      await page.locator(".plan-badge").first().hover();
      // Rankings and conversion by source.
      for (
        const [id, text] of [["#rank-sources", P.utmSource], ["#rank-campaigns", P.utmCampaign], [
          "#rank-pages",
          P.page,
        ]]
      ) {
        const rank = page.locator(id);
        await rank.scrollIntoViewIfNeeded();
        assert.ok(await rank.getByText(text, { exact: false }).first().isVisible(), `${id} shows ${text}`);
      }
      const conversion = page.locator("#conversion-by-source .conversion-table");
      await conversion.scrollIntoViewIfNeeded();
      assert.ok(
        await conversion.getByText(P.utmSource, { exact: true }).isVisible(),
        "conversion table source",
      );
      // A bidi override cannot disguise text ("\u202Egnp.exe" would show as "exe.png"): it is shown as a code
      // point, and the element is isolated from its neighbours.
      for (const where of ["#rank-sources", ".lead-list"]) {
        const shown = page.locator(where).getByText("⟨U+202E⟩gnp.exe").first();
        assert.ok(await shown.isVisible(), `${where} shows the override`);
      }
      const isolation = await page.locator("#rank-sources .rank-name", { hasText: "gnp.exe" }).evaluate((e) =>
        getComputedStyle(e).unicodeBidi
      );
      assert.equal(isolation, "isolate");

      // Search with markup: found, still text.
      await page.getByRole("searchbox", { name: "Buscar leads" }).fill("<script>");
      await page.waitForFunction(() => document.querySelectorAll(".lead-list .lead").length === 1, null, {
        timeout: 10_000,
      });
      assert.ok(await page.locator(".lead-list").getByText(P.name, { exact: true }).isVisible());
      assert.deepEqual(await liveMarkup(page), [], "no payload became markup");

      // The CSV export: payloads as text, quotes doubled, the formula neutralised.
      const csv = await page.evaluate(async () => await (await fetch("/api/leads/export.csv")).text());
      assert.ok(csv.includes(`"<script>alert(""name"")</script>"`), csv);
      assert.ok(csv.includes(`"""><svg/onload=alert(""email"")>@x.co"`), csv);
      assert.ok(csv.includes(`"'=HYPERLINK(""https://evil.example"",""abrir"")"`), csv);
      assert.ok(csv.includes(P.bidi), "the bidi override is kept as data");
      assert.ok(
        !/^[=+\-@]/m.test(csv.split("\r\n").flatMap((l) => l.split(/[;,]/)).join("\n")),
        "no cell starts a formula",
      );

      await screenshot(page, "hostile-dashboard-1366.png", { fullPage: true });
      assert.deepEqual(dialogs, [], "no dialog fired");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      await server.close();
    }
  },
);
