// Issue 18 in a real browser: a visitor arrives from Google search (no UTM), comes back later from an
// Instagram bio link with UTM, submits a lead; the administrator sees both touches on its card and the
// channels counted.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, openPage, screenshot, serveApp } from "./browser.ts";
import { planButton, visitor, waitFor } from "./visitor.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const BIO = "/pt-br/?utm_source=ig&utm_medium=social&utm_campaign=bio";
/** The page key BIO is stored under: the trailing slash folded (src/shared/page_key.ts). */
const BIO_PAGE = "/pt-br?utm_source=ig&utm_medium=social&utm_campaign=bio";

async function arrive(page: Page, url: string, referer: string) {
  await page.goto(url, { referer });
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
}

browserTest(
  "attribution: referrer with and without UTM gives the lead's first and last touch and the channels",
  async () => {
    const server = await serveApp();
    const v = await visitor(server);
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      // First session: Google search results, no UTM, landing on the Pipefy page; then a page within the site.
      await arrive(v.page, v.base + "/pt-br/pipefy-whatsapp-integracao", "https://www.google.com.br/");
      await v.page.goto(v.base + "/pt-br/clientes");
      await v.page.waitForSelector("html[data-hydrated=true]");
      // Later, the Instagram bio link, tagged.
      await arrive(v.page, v.base + BIO, "https://l.instagram.com/");
      const visits = await waitFor(
        () =>
          server.db.query<Record<string, unknown>>(
            "select source, referrer_host, traffic_source, channel, entry from visits order by id",
          ),
        (r) => r.length >= 3,
      );
      assert.deepEqual(visits, [
        {
          source: "/pt-br/pipefy-whatsapp-integracao",
          referrer_host: "google.com.br",
          traffic_source: "google",
          channel: "organic_search",
          entry: true,
        },
        {
          source: "/pt-br/clientes",
          referrer_host: "google.com.br",
          traffic_source: "google",
          channel: "organic_search",
          entry: false,
        },
        {
          source: BIO_PAGE,
          referrer_host: "l.instagram.com",
          traffic_source: "ig",
          channel: "organic_social",
          entry: true,
        },
      ]);

      await v.page.locator("#precos").scrollIntoViewIfNeeded();
      await planButton(v.page, "Pro").click();
      const dialog = v.page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("Renata Lima");
      await dialog.getByLabel("E-mail").fill("renata@empresa.com.br");
      await dialog.getByLabel("WhatsApp").fill("(11) 97777-1234");
      const saved = v.page.waitForResponse((r) => r.url().endsWith("/api/leads"));
      await dialog.getByRole("button", { name: "Continuar" }).click();
      assert.equal((await saved).status(), 201);
      await waitFor(
        () => server.db.query("select id from conversions"),
        (r) => r.length > 0,
      );

      for (const width of [1366, 390]) {
        const { page, problems, close } = await openPage(server.baseUrl, { width, height: 900 });
        try {
          // The last 7 days hold the lead whatever the time now (this month would be a new, empty one after a
          // run across the last midnight of a month).
          await page.goto(server.baseUrl + "/pt-br/admin?periodo=ultimos-7-dias");
          await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
          await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
          await page.getByRole("button", { name: "Entrar" }).click();
          const card = page.locator(".lead").filter({ hasText: "Renata Lima" });
          await card.waitFor({ timeout: 20_000 });
          const first = await card.getByTestId("lead-first-touch").innerText();
          const last = await card.getByTestId("lead-last-touch").innerText();
          for (const text of ["Pesquisa orgânica", "google / organic", "/pt-br/pipefy-whatsapp-integracao"]) {
            assert.ok(first.includes(text), `first touch: ${first}`);
          }
          for (const text of ["Social orgânico", "ig / social", "bio", BIO]) {
            assert.ok(last.includes(text), `last touch: ${last}`);
          }
          await page.locator("#channels tbody tr").first().waitFor({ timeout: 20_000 });
          const channels = await page.locator("#channels tbody tr").evaluateAll((rows) =>
            rows.map((r) => [...r.querySelectorAll("th, td")].map((c) => c.firstChild?.textContent?.trim()))
          );
          // Visits, clicks, leads, rate and WhatsApp clicks per channel (the click and the lead came from the Instagram session).
          assert.deepEqual(channels, [
            ["Pesquisa orgânica", "2", "0", "0", "0,0%", "0"],
            ["Social orgânico", "1", "1", "1", "100,0%", "0"],
          ]);
          const byChannel = await page.locator("#conversion-by-channel tbody tr").innerText();
          assert.match(byChannel, /Social orgânico\s+1\s+1\s+100,0%/);
          const sources = await page.locator("#rank-traffic-sources .ranking").innerText();
          assert.match(sources, /google[\s\S]*2 visitas[\s\S]*ig[\s\S]*1 visita/);
          const entries = await page.locator("#rank-entry-pages .ranking").innerText();
          assert.match(entries, /\/pt-br\/pipefy-whatsapp-integracao[\s\S]*1 entrada/);
          await page.locator("#channels").scrollIntoViewIfNeeded();
          await screenshot(page, `channels-${width}.png`);
          await card.scrollIntoViewIfNeeded();
          await screenshot(card, `lead-touches-${width}.png`);
          await screenshot(page.locator("#rankings"), `rankings-${width}.png`);
          assert.deepEqual(problems.failedRequests, []);
        } finally {
          await close();
        }
      }
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);
