// The dashboard's comparisons, averages and small behaviours (issue 28, items 3, 4 and 10) in a real browser:
// each figure names the dates it is compared with; "Média por dia" divides by the days begun; changing one
// date says what happened to the other; a page past the last is answered; the pages ranking groups by path;
// the sign-in toast covers no card at 1366 px; a channel's name never breaks inside a word at 390 px.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, openPage, serveApp, widerThanScreen } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { addDays, comparisonRange, daysInclusive, monthOf, todayIn } from "../src/shared/dashboard_math.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const TZ = "America/Sao_Paulo";
// The seed's, the server's and the browser's clock: 21 November 2026, 12:00 in São Paulo, whatever the real date
// and time (on the 1st, this month had almost no data; a run across midnight saw another "today").
const NOW = FIXED_NOW;

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

const dm = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const dmy = (day: string) => day.split("-").reverse().join("/");

browserTest(
  "admin: comparisons name their dates, averages use the days begun, pickers and pages say what they did",
  async () => {
    const server = await serveApp({}, { now: () => NOW });
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      const today = todayIn(TZ, NOW);
      const month = monthOf(today);
      const previous = monthOf(addDays(month.start, -1));
      await seedAnalytics(server.db, {
        days: daysInclusive(previous.start, today),
        visits: 12_000,
        now: NOW,
      });

      // 1366 × 768, a laptop's screen: the sign-in toast covers no card while it is shown.
      const { page, problems, close } = await openPage(server.baseUrl, { width: 1366, height: 768 }, {
        now: NOW,
      });
      await page.goto(server.baseUrl + "/pt-br/admin");
      await page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
      await signIn(page);
      const toast = page.getByTestId("toast");
      await toast.waitFor({ state: "visible" });
      // The pointer on the toast holds it (it would leave after 5 s, before a busy machine draws the cards).
      await toast.hover();
      await page.locator("#funnel").waitFor();
      const covered = await page.evaluate(() => {
        const t = document.querySelector("[data-testid=toast]")!.getBoundingClientRect();
        return [...document.querySelectorAll(".admin-card")].filter((card) => {
          const c = card.getBoundingClientRect();
          return c.left < t.right && t.left < c.right && c.top < t.bottom && t.top < c.bottom;
        }).map((card) => card.id || card.className);
      });
      assert.deepEqual(covered, [], "the toast covers no card");
      await page.mouse.move(0, 0);
      await settled(page);

      // Each figure says which dates it is compared with: this month so far against the same days before.
      const compared = comparisonRange(month, today, "12:00:00");
      const dates = compared.start === compared.end
        ? dm(compared.start)
        : `${dm(compared.start)}–${dm(compared.end)}`;
      const visitors = page.locator("#visits [data-testid=metric-change]").first();
      const expected = compared.until
        ? new RegExp(`vs ${dates} \\(${dm(compared.end)} até \\d{2}:\\d{2}\\)$`)
        : new RegExp(`vs ${dates}$`);
      assert.match(await visitors.innerText(), expected);
      for (const id of ["conversions", "lead-stats"]) {
        assert.match(
          await page.locator(`#${id} [data-testid=metric-change]`).first().innerText(),
          expected,
          id,
        );
      }

      // "Média por dia" divides by the days of the month begun so far, and says how many.
      const begun = daysInclusive(month.start, today);
      const average = page.getByTestId("leads-per-day").locator("xpath=..");
      assert.equal(
        await average.locator(".metric-hint").innerText(),
        `em ${begun} ${begun === 1 ? "dia" : "dias"}`,
      );

      // "Hoje": compared with yesterday until the same time (in the first minutes of a day yesterday had no
      // visits yet by then, and the figure says so before naming the dates in parentheses).
      await page.getByRole("button", { name: "Hoje" }).click();
      await page.getByTestId("period-range").filter({ hasText: `${dmy(today)} – ${dmy(today)}` }).waitFor();
      await settled(page);
      assert.match(
        await page.locator("#visits [data-testid=metric-change]").first().innerText(),
        new RegExp(`vs ${dm(addDays(today, -1))} até \\d{2}:\\d{2}\\)?$`),
      );

      // Changing only the start date keeps the end, and says so with the number of days.
      await page.getByRole("button", { name: "Este mês" }).click();
      const start = addDays(month.end, -93);
      await page.getByLabel("Data inicial").fill(start);
      await page.getByTestId("period-range").filter({ hasText: dmy(start) }).waitFor();
      assert.equal(
        await page.getByTestId("period-note").innerText(),
        `Data inicial alterada; a data final (${dmy(month.end)}) foi mantida: 94 dias. ` +
          "Acima de 62 dias, os visitantes únicos são estimados (aprox.).",
      );
      // A preset clears the note.
      await page.getByRole("button", { name: "Este mês" }).click();
      await page.getByTestId("period-note").filter({ hasText: "Até 732 dias." }).waitFor();
      await settled(page);

      // "Ir" to a page past the last: the last page, and a word about it. Last month's leads, seeded in full
      // whatever today's date (on the first of a month, this month has no page of leads yet).
      await page.getByRole("button", { name: "Mês passado" }).click();
      await page.getByTestId("period-range")
        .filter({ hasText: `${dmy(previous.start)} – ${dmy(previous.end)}` }).waitFor();
      await settled(page);
      const pageText = await page.getByTestId("lead-page").innerText();
      const last = Number(pageText.match(/de ([\d.]+)$/)![1].replace(/\./g, ""));
      assert.ok(last > 1, pageText);
      await page.getByPlaceholder("Pág.").fill("99");
      await page.getByRole("button", { name: "Ir", exact: true }).click();
      await page.getByTestId("lead-page").filter({ hasText: `Página ${last} de ${last}` }).waitFor();
      assert.equal(
        await page.getByTestId("page-note").innerText(),
        `A página 99 não existe; última: ${last}.`,
      );

      // "por caminho": the pages ranking by path alone, no query in any row.
      await page.getByTestId("rank-pages-toggle").check();
      await page.waitForFunction(
        () => {
          const names = [...document.querySelectorAll("#rank-pages .rank-name")].map((n) =>
            n.textContent ?? ""
          );
          return names.length > 0 && names.every((n) => !n.includes("?"));
        },
        null,
        { timeout: 10_000 },
      );
      const paths = await page.locator("#rank-pages .rank-name").allInnerTexts();
      assert.equal(new Set(paths).size, paths.length, "one row per path");
      const bare = paths.map((p) => p.replace(/^\d+º:\s*/, "").trim());
      assert.ok(bare.every((p) => p === "/" || !p.endsWith("/")), String(bare));
      assert.deepEqual(problems.consoleErrors.filter((e) => !e.includes("401")), []);
      await close();

      // 390 px: the name of a channel or origin wraps between words, never inside one ("Referênc/ia").
      const phone = await openPage(server.baseUrl, { width: 390, height: 844 }, { now: NOW });
      await phone.page.goto(server.baseUrl + "/pt-br/admin");
      await phone.page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
      await signIn(phone.page);
      await settled(phone.page);
      const broken = await phone.page.evaluate(() => {
        const out: string[] = [];
        for (const th of document.querySelectorAll(".conversion-table tbody th")) {
          const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? "";
            for (const m of text.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index!);
              range.setEnd(node, m.index! + m[0].length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size > 1) out.push(m[0]);
            }
          }
        }
        return out;
      });
      assert.deepEqual(broken, [], "no word broken across lines");
      const names = await phone.page.locator(".conversion-table tbody th").allInnerTexts();
      assert.ok(names.some((n) => n.includes("Referência")), String(names));
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.equal(overflow, 0, `no horizontal scrolling at 390 px: ${await widerThanScreen(phone.page)}`);
      await phone.close();
    } finally {
      await server.close();
    }
  },
);
