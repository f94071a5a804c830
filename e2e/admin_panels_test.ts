// Every ranking in full and every panel exported (issue 29, items 8 and 9) in a real browser: "Ver todos"
// lists rows past the top 10 and searches them; a ranking's CSV downloads with every row; the lead list
// shows several leads at once at 1366 px, each WhatsApp number a wa.me link (or plain text when it cannot
// be read for sure), and the table's "Origem" is the last touch.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, openPage, screenshot, serveApp, UPDATE_SCREENSHOTS } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { todayIn } from "../src/shared/dashboard_math.ts";
import { insertLead, insertVisit } from "../testing/analytics_fixture.ts";
import type { Db } from "../src/db/client.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const TZ = "America/Sao_Paulo";
// The server's and the browser's clock: 21 November 2026, 12:00 in São Paulo. With the real clock, a run across
// the last midnight of a month seeded today's rows and then showed the next month, without them.
const NOW = FIXED_NOW;
const LONG_PAGE = "/pt-br/pipefy-whatsapp-integracao?utm_source=src-14&utm_campaign=" +
  "black-friday-2026-remarketing-publico-semelhante-1-por-cento-brasil-todo";

/** São Paulo local time today (UTC-3). */
const at = (today: string, time: string) => new Date(`${today}T${time}-03:00`);

/** 14 UTM sources (src-01 with 1 visit … src-14 with 14) and 30 leads, the newest with a Brazilian mobile. */
async function seed(db: Db, today: string) {
  for (let i = 1; i <= 14; i++) {
    const source = `src-${String(i).padStart(2, "0")}`;
    for (let n = 0; n < i; n++) {
      await insertVisit(db, at(today, "00:30:00"), `v${i}-${n}`, i === 14 ? LONG_PAGE : "/pt-br", {
        utmSource: source,
      }, { trafficSource: source, channel: "paid_search", entry: n === 0 });
    }
  }
  for (let i = 0; i < 28; i++) {
    await insertLead(db, at(today, `00:${String(10 + i).padStart(2, "0")}:00`), {
      name: `Lead ${i + 1}`,
      email: `lead${i + 1}@example.com`,
      whatsapp: "(21) 99876-5432",
    });
  }
  await insertLead(db, at(today, "00:40:00"), {
    name: "Sem Número",
    email: "sem@example.com",
    whatsapp: "98765",
  });
  await insertLead(db, at(today, "00:41:00"), {
    name: "Ana Mobile",
    email: "ana@example.com",
    whatsapp: "(11) 98765-4321",
    utmSource: "google",
    lastChannel: "paid_search",
  });
  await db.query(
    `update leads set page = 'http://example.com/pt-br', last_source = 'google', last_medium = 'cpc'
      where email = 'ana@example.com'`,
  );
}

async function signIn(page: Page) {
  await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 10_000 });
}

async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
    timeout: 30_000,
  });
}

browserTest("admin panels: full rankings, a panel's CSV, a lead list that shows several leads", async () => {
  const server = await serveApp({}, { now: () => NOW });
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    const today = todayIn(TZ, NOW);
    await seed(server.db, today);
    const { page, problems, close } = await openPage(server.baseUrl, { width: 1366, height: 900 }, {
      now: NOW,
    });
    await page.goto(server.baseUrl + "/pt-br/admin");
    await signIn(page);
    await settled(page);
    if (UPDATE_SCREENSHOTS) {
      await page.getByTestId("toast").waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
      await page.locator("#visits").scrollIntoViewIfNeeded();
      await screenshot(page, "admin-panels-csv-1366.png");
    }

    // The UTM sources ranking: its top 10, then "Ver todos" lists the other 4 and searches on the server.
    const card = page.locator("#rank-sources");
    assert.equal(await card.locator(".ranking li").count(), 10);
    await page.getByTestId("rank-sources-all").click();
    const dialog = page.getByTestId("rank-sources-full");
    await dialog.waitFor();
    await dialog.locator(".ranking li").nth(13).waitFor();
    assert.equal(await dialog.locator(".ranking li").count(), 14);
    assert.match(await dialog.locator(".ranking li").nth(13).innerText(), /src-01\s+1 visita/);
    assert.match(await dialog.getByRole("status").innerText(), /^14 itens$/);
    await screenshot(page, "admin-ranking-full-1366.png");
    await dialog.getByRole("searchbox").fill("SRC-1");
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=rank-sources-full] .card-sub")?.textContent === "5 itens"
    );
    assert.deepEqual(
      (await dialog.locator(".rank-name").allInnerTexts()).map((t) => t.replace(/^\d+º:\s*/, "")),
      ["src-14", "src-13", "src-12", "src-11", "src-10"],
    );
    await dialog.getByRole("button", { name: "Fechar" }).click();
    await dialog.waitFor({ state: "detached" });

    // The ranking's CSV downloads every source, not the top 10, in the pt-BR layout.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("rank-sources-csv").click(),
    ]);
    assert.equal(download.suggestedFilename(), `origens-utm_${today.slice(0, 8)}01_${monthEnd(today)}.csv`);
    const csv = await Deno.readTextFile(await download.path());
    assert.ok(
      csv.startsWith(
        '\uFEFF"Posição";"Origem (utm_source)";"Visualizações de página"\r\n"1";"src-14";"14"\r\n',
      ),
      csv,
    );
    assert.equal(csv.trim().split("\r\n").length, 15);
    assert.ok(csv.includes('"14";"src-01";"1"\r\n'));

    // A long page name is cut to one line where a pointer can hover (its tooltip holds it whole) and wraps
    // whole on touch screens; pressing it filters the dashboard to that page (e2e/admin_filters_test.ts).
    const longName = page.locator("#rank-pages .rank-name", { hasText: "pipefy" }).locator(".row-filter");
    const [hover, cut] = await longName.evaluate((el) => [
      matchMedia("(hover: hover)").matches,
      el.scrollWidth > el.clientWidth,
    ]);
    assert.equal(cut, hover, `hover: ${hover}`);
    const whole = await page.locator("#rank-pages .rank-name", { hasText: "pipefy" }).getAttribute("title");
    assert.equal(whole, LONG_PAGE);

    // The lead list is a work list: no box scrolling inside the page, several whole leads on one screen.
    const list = page.locator("#leads .lead-list");
    await list.scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector("#leads")!.scrollIntoView());
    assert.equal(
      await list.evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
      true,
      "no inner scroll",
    );
    const onScreen = await page.evaluate(() =>
      [...document.querySelectorAll("#leads .lead")].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      }).length
    );
    assert.ok(onScreen >= 4, `${onScreen} whole leads on screen`);
    const ana = page.locator("#leads .lead").first();
    const wa = ana.getByTestId("lead-whatsapp");
    await wa.waitFor();
    assert.equal(await wa.getAttribute("href"), "https://wa.me/5511987654321");
    assert.equal(await wa.innerText(), "(11) 98765-4321");
    const plain = page.locator("#leads .lead").nth(1);
    assert.match(await plain.innerText(), /Sem Número/);
    assert.equal(await plain.getByTestId("lead-whatsapp").count(), 0);
    assert.equal(await plain.getByTestId("lead-whatsapp-plain").innerText(), "98765");
    await screenshot(page, "admin-leads-worklist-1366.png");

    // The table's "Origem" is the last touch: channel, then source / medium.
    await page.getByRole("button", { name: "Tabela" }).click();
    const origin = page.locator(".lead-table tbody tr").first().getByTestId("lead-origin");
    assert.equal((await origin.innerText()).replace(/\s+/g, " "), "Pesquisa paga google / cpc");
    assert.deepEqual(problems, { consoleErrors: [], failedRequests: [] });
    await close();

    // A phone: the dialog and the list fit 390 px.
    const phone = await openPage(server.baseUrl, { width: 390, height: 844 }, { now: NOW });
    await phone.page.goto(server.baseUrl + "/pt-br/admin");
    await signIn(phone.page);
    await settled(phone.page);
    await phone.page.locator("#leads").scrollIntoViewIfNeeded();
    await screenshot(phone.page, "admin-leads-worklist-390.png");
    await phone.page.getByTestId("rank-pages-all").click();
    const full = phone.page.getByTestId("rank-pages-full");
    await full.locator(".ranking li").first().waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow} px)`);
    await screenshot(phone.page, "admin-ranking-full-390.png");
    await phone.close();
  } finally {
    await server.close();
  }
});

/** The last day of `day`'s month. */
function monthEnd(day: string): string {
  const [y, m] = day.split("-").map(Number);
  return `${day.slice(0, 8)}${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
}
