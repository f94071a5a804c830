// The dashboard's filters and its view in the address (issue 29, items 1, 2 and 4) in a real browser: a click
// on a row filters every card, filters show as chips and combine (AND), a chip is removed, the address keeps
// the view through a reload, the back button and a pasted link opened in a fresh browser before sign-in, and
// the period presets. Figures from testing/filter_fixture.ts, worked out by hand.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, openPage, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedSessions } from "../testing/filter_fixture.ts";
import { addDays, monthOf, todayIn } from "../src/shared/dashboard_math.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const TZ = "America/Sao_Paulo";
const NOV = "startDate=2026-11-01&endDate=2026-11-30";

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

/** The headline figures on screen. */
async function figures(page: Page) {
  await settled(page);
  const read = async (id: string) => (await page.getByTestId(id).first().innerText()).trim();
  return {
    visitors: await read("unique-visitors"),
    clicks: await read("clicks"),
    conversions: await read("conversions"),
    leads: await read("total-leads"),
  };
}

async function chips(page: Page) {
  return await page.locator(".filter-chip .filter-chip-text").allInnerTexts();
}

async function leadNames(page: Page) {
  await settled(page);
  return await page.locator("#leads .lead-name").allInnerTexts();
}

const query = (page: Page) => new URL(page.url()).searchParams;

browserTest(
  "admin: click a row to filter every card, chips combine, and the view lives in the address",
  async () => {
    const server = await serveApp();
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      await seedSessions(server.db);
      const { page, problems, close } = await openPage(server.baseUrl, { width: 1366, height: 900 });
      // A link to November opens November after sign-in (the login card keeps the address).
      await page.goto(`${server.baseUrl}/pt-br/admin?${NOV}`);
      await page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
      await signIn(page);
      assert.match(await page.getByTestId("period-range").innerText(), /01\/11\/2026 – 30\/11\/2026/);
      assert.deepEqual(await figures(page), { visitors: "3", clicks: "3", conversions: "2", leads: "2" });
      assert.match(await page.getByTestId("filter-bar").innerText(), /Sem filtros/);

      // One click on the channel row: every card follows, a chip shows it, the address names it.
      await page.locator("#channels").getByRole("button", { name: "Filtrar por Canal: Social pago" }).click();
      assert.deepEqual(await chips(page), ["Canal: Social pago"]);
      assert.equal(query(page).get("f_channel"), "paid_social");
      assert.deepEqual(await figures(page), { visitors: "2", clicks: "2", conversions: "1", leads: "1" });
      assert.deepEqual(await leadNames(page), ["Ana Meta"]);
      assert.deepEqual(
        (await page.locator("#rank-pages .rank-name").allTextContents()).map((t) =>
          t.replace(/\s+/g, " ").trim()
        ),
        ["1º: /pt-br", "2º: /pt-br/clientes"],
      );

      // A second filter, from the creatives panel (asked when it comes near the screen): both apply (AND).
      await page.locator("#utm-details").scrollIntoViewIfNeeded();
      await page.locator("#rank-utm-content").getByRole("button", {
        name: "Filtrar por Criativo (utm_content): video-1",
      })
        .click();
      assert.deepEqual(await chips(page), ["Canal: Social pago", "Criativo (utm_content): video-1"]);
      assert.deepEqual(await figures(page), { visitors: "1", clicks: "1", conversions: "1", leads: "1" });
      assert.equal(await page.locator("#rank-utm-content tbody tr").count(), 1);

      // Remove the channel chip: only the creative is left.
      await page.getByRole("button", { name: "Remover filtro Canal: Social pago" }).click();
      assert.deepEqual(await chips(page), ["Criativo (utm_content): video-1"]);
      assert.equal(query(page).get("f_channel"), null);
      assert.equal(query(page).get("f_utm_content"), "video-1");

      // Back walks the views: both filters again, then the channel alone.
      await page.goBack();
      assert.deepEqual(await chips(page), ["Canal: Social pago", "Criativo (utm_content): video-1"]);
      assert.deepEqual(await figures(page), { visitors: "1", clicks: "1", conversions: "1", leads: "1" });
      await page.goBack();
      assert.deepEqual(await chips(page), ["Canal: Social pago"]);
      assert.deepEqual(await figures(page), { visitors: "2", clicks: "2", conversions: "1", leads: "1" });

      // A reload keeps the view.
      await page.reload();
      await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor();
      assert.deepEqual(await chips(page), ["Canal: Social pago"]);
      assert.match(await page.getByTestId("period-range").innerText(), /01\/11\/2026 – 30\/11\/2026/);
      assert.deepEqual(await figures(page), { visitors: "2", clicks: "2", conversions: "1", leads: "1" });

      // A page filter from the ranking, then the copied address in a fresh browser (no session yet).
      await page.locator("#rank-pages").getByRole("button", { name: /Filtrar por Página: \/pt-br\/clientes/ })
        .click();
      assert.deepEqual(await chips(page), ["Canal: Social pago", "Página: /pt-br/clientes"]);
      assert.deepEqual(await figures(page), { visitors: "1", clicks: "1", conversions: "1", leads: "1" });
      const link = page.url();
      assert.equal(problems.consoleErrors.length, 0, problems.consoleErrors.join("\n"));
      await close();

      const fresh = await openPage(server.baseUrl, { width: 390, height: 844 });
      try {
        await fresh.page.goto(link);
        await fresh.page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
        await signIn(fresh.page);
        assert.equal(fresh.page.url(), link);
        assert.deepEqual(await chips(fresh.page), ["Canal: Social pago", "Página: /pt-br/clientes"]);
        assert.deepEqual(await figures(fresh.page), {
          visitors: "1",
          clicks: "1",
          conversions: "1",
          leads: "1",
        });
        // "Limpar filtros" removes them all.
        await fresh.page.getByRole("button", { name: "Limpar filtros" }).click();
        assert.deepEqual(await chips(fresh.page), []);
        assert.deepEqual(await figures(fresh.page), {
          visitors: "3",
          clicks: "3",
          conversions: "2",
          leads: "2",
        });
        assert.equal(fresh.problems.consoleErrors.length, 0, fresh.problems.consoleErrors.join("\n"));
      } finally {
        await fresh.close();
      }
    } finally {
      await server.close();
    }
  },
);

// The presets test's clock (the server's and the browser's): 21 November 2026, 12:00 in São Paulo. With the real
// clock, a run across midnight expected the presets of one day and saw those of the next.
const NOW = FIXED_NOW;

browserTest("admin: period presets are named in the address; no period there is this month", async () => {
  const server = await serveApp({}, { now: () => NOW });
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    const today = todayIn(TZ, NOW);
    const { page, problems, close } = await openPage(server.baseUrl, { width: 1366, height: 900 }, {
      now: NOW,
    });
    await page.goto(`${server.baseUrl}/pt-br/admin`);
    await signIn(page);
    const dmy = (day: string) => day.split("-").reverse().join("/");
    const range = async () => (await page.getByTestId("period-range").innerText()).split("(")[0].trim();
    const month = monthOf(today);
    assert.equal(await range(), `${dmy(month.start)} – ${dmy(month.end)}`);
    assert.equal(await page.getByRole("button", { name: "Este mês" }).getAttribute("aria-pressed"), "true");
    assert.equal(new URL(page.url()).search, "");

    const year = today.slice(0, 4);
    const lastMonth = monthOf(addDays(month.start, -1));
    const cases: [string, string, string, string][] = [
      ["Hoje", "hoje", today, today],
      ["Ontem", "ontem", addDays(today, -1), addDays(today, -1)],
      ["Últimos 7 dias", "ultimos-7-dias", addDays(today, -6), today],
      ["Últimos 30 dias", "ultimos-30-dias", addDays(today, -29), today],
      ["Mês passado", "mes-passado", lastMonth.start, lastMonth.end],
      ["Este ano", "este-ano", `${year}-01-01`, `${year}-12-31`],
    ];
    for (const [label, id, start, end] of cases) {
      await page.getByRole("button", { name: label, exact: true }).click();
      assert.equal(query(page).get("periodo"), id, label);
      assert.equal(await range(), `${dmy(start)} – ${dmy(end)}`, label);
      assert.equal(
        await page.getByRole("button", { name: label, exact: true }).getAttribute("aria-pressed"),
        "true",
      );
    }
    await page.getByRole("button", { name: "Últimos 12 meses" }).click();
    assert.equal(query(page).get("periodo"), "ultimos-12-meses");
    assert.match(await range(), new RegExp(` – ${dmy(today)}$`));

    // Custom dates: "Personalizado" is pressed and the address names the dates.
    await page.getByRole("button", { name: "Personalizado" }).click();
    await page.getByLabel("Data inicial").fill(addDays(today, -3));
    assert.equal(
      await page.getByRole("button", { name: "Personalizado" }).getAttribute("aria-pressed"),
      "true",
    );
    assert.equal(query(page).get("periodo"), null);
    assert.equal(query(page).get("startDate"), addDays(today, -3));
    await page.reload();
    await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor();
    assert.equal(await range(), `${dmy(addDays(today, -3))} – ${dmy(today)}`);

    // Back walks the custom dates, then the preset before them; this month, the default, has no period.
    await page.goBack();
    await page.goBack();
    assert.equal(query(page).get("periodo"), "ultimos-12-meses");
    await page.getByRole("button", { name: "Este mês" }).click();
    assert.equal(new URL(page.url()).search, "");
    assert.equal(problems.consoleErrors.length, 0, problems.consoleErrors.join("\n"));
    await close();
  } finally {
    await server.close();
  }
});
