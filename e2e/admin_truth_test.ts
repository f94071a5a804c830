// The dashboard tells the truth whatever the browser's time zone, notices an ended session, and its toasts
// close with the × button (issue 22).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, openPage, serveApp, type Served } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { runRollups } from "../src/services/rollups.ts";
import { daysInclusive, monthOf, todayIn } from "../src/shared/dashboard_math.ts";
import { insertClick, insertLead, insertVisit, sp } from "../testing/analytics_fixture.ts";
import { waitFor } from "./visitor.ts";
import { TOAST_DURATION_MS } from "../src/ui/admin/toast.tsx";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";

async function signIn(page: Page) {
  await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 10_000 });
}

async function toastTexts(page: Page): Promise<string[]> {
  const toast = page.getByTestId("toast");
  await toast.waitFor({ state: "visible", timeout: 10_000 });
  return [
    await toast.locator(".toast-title").innerText(),
    await toast.locator(".toast-description").innerText(),
  ];
}

/** An app with the administrator; `now` fixes the server's clock. */
async function withAdmin(fn: (server: Served) => Promise<void>, now?: Date) {
  const server = await serveApp({}, { now: now && (() => now) });
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    await fn(server);
  } finally {
    await server.close();
  }
}

// 30/11/2026 22:30 in São Paulo: already 1 December in UTC and in Tokyo, still 30 November in Los Angeles.
const BROWSER_NOW = sp("2026-11-30T22:30:00");

for (const timezoneId of ["UTC", "America/Los_Angeles", "Asia/Tokyo"]) {
  browserTest(
    `admin: dates, presets and the default month follow ANALYTICS_TZ in a ${timezoneId} browser`,
    () =>
      withAdmin(async (server) => {
        await insertLead(server.db, sp("2026-11-30T22:00:00"), {
          name: "Noite",
          email: "noite@example.com",
          whatsapp: "+55 11 91234-5678",
        });
        await insertLead(server.db, sp("2026-11-01T00:30:00"), {
          name: "Madrugada",
          email: "madrugada@example.com",
          whatsapp: "+55 11 98765-4321",
        });
        const { page, problems, close } = await openPage(server.baseUrl, undefined, { timezoneId });
        await page.clock.setFixedTime(BROWSER_NOW);
        assert.equal(
          await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
          timezoneId === "UTC" ? "UTC" : timezoneId,
        );
        await page.goto(server.baseUrl + "/pt-br/admin");
        await signIn(page);
        // The default period is São Paulo's month, and both leads are in it, at São Paulo's times.
        assert.match(await page.getByTestId("period-range").innerText(), /^01\/11\/2026 – 30\/11\/2026/);
        await page.locator(".lead").nth(1).waitFor({ timeout: 20_000 });
        assert.deepEqual(await page.locator(".lead-date").allInnerTexts(), [
          "30/11/2026 às 22:00",
          "01/11/2026 às 00:30",
        ]);
        // "Últimos 7 dias" ends today in São Paulo.
        await page.getByRole("button", { name: "Últimos 7 dias" }).click();
        assert.match(await page.getByTestId("period-range").innerText(), /^24\/11\/2026 – 30\/11\/2026/);
        assert.deepEqual(problems.consoleErrors, []);
        await close();
      }),
  );
}

browserTest(
  "admin: an ended session takes every card back to the login card with one toast",
  () =>
    withAdmin(async (server) => {
      const { page, problems, close } = await openPage(server.baseUrl);
      await page.goto(server.baseUrl + "/pt-br/admin");
      await signIn(page);
      await page.getByTestId("toast").waitFor({ state: "detached", timeout: 10_000 });
      // Signed out elsewhere: "Atualizar" reloads every card, each gets a 401.
      await server.db.query("delete from sessions");
      await page.getByRole("button", { name: "Atualizar" }).click();
      await page.getByRole("heading", { name: "Área Administrativa" }).waitFor({ timeout: 10_000 });
      assert.deepEqual(await toastTexts(page), [
        "Sessão encerrada",
        "Sua sessão expirou ou foi encerrada em outro lugar. Entre novamente.",
      ]);
      assert.equal(await page.getByTestId("toast").count(), 1);
      assert.equal(await page.locator(".card-error").count(), 0);

      // The same when a password change meets an ended session.
      await signIn(page);
      await page.getByRole("button", { name: "Alterar Senha" }).click();
      // Every card's first load done: one still in flight when the session ends would meet it first and take
      // the page to the login card before the form is filled (seen once in CI under load).
      await page.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
        timeout: 30_000,
      });
      await server.db.query("delete from sessions");
      const panel = page.locator("#password-panel");
      await panel.getByLabel("Senha atual").fill(PASSWORD);
      await panel.getByLabel("Nova senha", { exact: true }).fill("outra-senha-456");
      await panel.getByLabel("Confirmar nova senha").fill("outra-senha-456");
      await panel.getByRole("button", { name: "Salvar nova senha" }).click();
      await page.getByRole("heading", { name: "Área Administrativa" }).waitFor({ timeout: 10_000 });
      assert.equal((await toastTexts(page))[0], "Sessão encerrada");
      assert.deepEqual(problems.consoleErrors.filter((e) => !e.includes("401")), []);
      await close();
    }),
);

browserTest("admin: the toast's × button closes it with a mouse click", () =>
  withAdmin(async (server) => {
    const { page, close } = await openPage(server.baseUrl);
    // The toast's own 5 s timer is held back, so only the click can close it: under load, the time between
    // seeing the toast and clicking it can pass 5 s, and the timer would close it first.
    await page.addInitScript((ms) => {
      const setTimer = globalThis.setTimeout;
      globalThis.setTimeout = ((fn: () => void, delay?: number, ...rest: unknown[]) =>
        delay === ms ? 0 : setTimer(fn, delay, ...rest)) as typeof setTimeout;
    }, TOAST_DURATION_MS);
    await page.goto(server.baseUrl + "/pt-br/admin");
    await signIn(page);
    const toast = page.getByTestId("toast");
    await toast.waitFor({ state: "visible" });
    await toast.getByRole("button", { name: "Fechar notificação" }).click();
    await toast.waitFor({ state: "detached", timeout: 1_000 });
    await close();
  }));

browserTest(
  "admin: the daily chart has every day of the period, evenly spaced, and caps a runaway rate",
  () =>
    withAdmin(async (server) => {
      // Data on 5, 20 and 21 November only; on the 20th, 1 click and 36 leads (a 3.600 % rate).
      await insertVisit(server.db, sp("2026-11-05T10:00:00"), "a", "/pt-br");
      await insertVisit(server.db, sp("2026-11-20T10:00:00"), "b", "/pt-br");
      await insertVisit(server.db, sp("2026-11-21T10:00:00"), "c", "/pt-br");
      await insertClick(server.db, sp("2026-11-20T10:00:00"));
      // October (the previous period): 1 click, 1 lead (a conversion), a 100% rate; November: 3.600%.
      await insertClick(server.db, sp("2026-10-15T10:00:00"));
      await insertLead(server.db, sp("2026-10-15T10:01:00"), {
        name: "Outubro",
        email: "outubro@example.com",
        whatsapp: "+55 11 91234-5678",
      });
      for (let i = 0; i < 36; i++) {
        await insertLead(server.db, sp("2026-11-20T11:00:00"), {
          name: `Lead ${i}`,
          email: `l${i}@example.com`,
          whatsapp: "+55 11 91234-5678",
        });
      }
      const { page, close } = await openPage(server.baseUrl, undefined, { now: FIXED_NOW });
      await page.goto(server.baseUrl + "/pt-br/admin");
      await signIn(page);
      const chart = page.getByTestId("chart");
      await chart.locator("canvas").waitFor({ timeout: 20_000 });
      // 1 to 21 November (today; later days have no data yet), one point each.
      const days = (await chart.getAttribute("data-days"))!.split(" ");
      assert.equal(days.length, 21);
      days.forEach((day, i) => assert.equal(day, `2026-11-${String(i + 1).padStart(2, "0")}`));
      assert.match(await page.locator(".chart-note").innerText(), /Taxas acima de 100%/);
      // Comparisons on comparable units: a rate changes in percentage points; the funnel per visitor.
      assert.match(
        await page.getByTestId("conversion-rate").locator("xpath=..").locator(".metric-change").innerText(),
        /^▲\s+3\.500,0 p\.p\.\s+vs \d\d\/\d\d–\d\d\/\d\d$/,
      );
      assert.deepEqual(await page.locator(".funnel-step").allInnerTexts(), [
        "pessoas (por endereço IP)",
        "0,3 cliques por visitante único",
        "0,0 cliques no WhatsApp por visitante único",
        "1.200,0 leads por 100 visitantes únicos",
      ]);
      await close();
    }),
);

browserTest(
  "admin: changing the period never shows the previous period's leads or count",
  () =>
    withAdmin(async (server) => {
      await insertLead(server.db, sp("2026-11-10T10:00:00"), {
        name: "Novembro",
        email: "nov@example.com",
        whatsapp: "+55 11 91234-5678",
      });
      await insertLead(server.db, sp("2026-10-10T10:00:00"), {
        name: "Outubro",
        email: "out@example.com",
        whatsapp: "+55 11 91234-5678",
      });
      const { page, close } = await openPage(server.baseUrl, undefined, { now: FIXED_NOW });
      await page.goto(server.baseUrl + "/pt-br/admin");
      await signIn(page);
      await page.locator(".lead-name").filter({ hasText: "Novembro" }).waitFor({ timeout: 20_000 });
      assert.equal(await page.locator("#leads .card-sub").innerText(), "1 lead no período");

      // October's leads take a while to come: meanwhile, a loading state, not November's lead.
      let release!: () => void;
      const held = new Promise<void>((resolve) => release = resolve);
      await page.route("**/api/leads?*startDate=2026-10-01*", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("button", { name: "Mês passado" }).click();
      await page.locator("#leads .card-loading").waitFor({ timeout: 5_000 });
      assert.equal(await page.locator("#leads .lead").count(), 0);
      assert.equal(await page.locator("#leads .card-sub").count(), 0);
      release();
      await page.locator(".lead-name").filter({ hasText: "Outubro" }).waitFor({ timeout: 10_000 });

      // A period whose leads fail: an error, with no count from another period above it.
      await page.route(
        "**/api/leads?*startDate=2026-11-15*",
        (route) => route.fulfill({ status: 500, body: "{}" }),
      );
      await page.getByLabel("Data inicial").fill("2026-11-15");
      await page.locator("#leads .card-error").waitFor({ timeout: 10_000 });
      assert.equal(await page.locator("#leads .card-sub").count(), 0);
      assert.equal(await page.locator("#leads .lead").count(), 0);
      await close();
    }),
);

browserTest(
  "admin: the period picker refuses more than 732 days and says why",
  () =>
    withAdmin(async (server) => {
      const { page, close } = await openPage(server.baseUrl, undefined, { now: FIXED_NOW });
      await page.goto(server.baseUrl + "/pt-br/admin");
      await signIn(page);
      await page.getByLabel("Data inicial").fill("2024-01-01");
      assert.equal(
        await page.locator("#period-limit").innerText(),
        "O período pode ter no máximo 732 dias: escolha datas mais próximas.",
      );
      assert.match(await page.getByTestId("period-range").innerText(), /^01\/11\/2026 – 30\/11\/2026/);
      assert.equal(await page.getByLabel("Data inicial").getAttribute("min"), "2024-11-29");
      await page.waitForFunction(() => !document.querySelector(".card-loading"), null, { timeout: 20_000 });
      assert.equal(await page.locator(".card-error").count(), 0);
      await close();
    }),
);

// The seed's, the server's and the browser's clock in the 390 px test, whatever the real date and time (in the
// first minute of a month, "a minute ago" was last month, outside the month the dashboard shows).
const NOW = FIXED_NOW;

browserTest(
  "admin: at 390 px the conversion table fits, page URLs read in full, buttons are 44 px",
  () =>
    withAdmin(async (server) => {
      const month = monthOf(todayIn("America/Sao_Paulo", NOW));
      await seedAnalytics(server.db, {
        days: daysInclusive(month.start, todayIn("America/Sao_Paulo", NOW)),
        visits: 600,
        now: NOW,
      });
      const longPage =
        "/pt-br/integracoes/pipefy?utm_source=newsletter-de-novembro&utm_campaign=black-friday-2026";
      // Enough visits to rank among the seeded pages (the seed spreads 600 over every public path). Written a
      // minute ago, as the tracking endpoint would: an hour ago would be yesterday between 00:00 and 01:00, a
      // day the seed's roll-up already closed (the job rewrites from its watermark on, not days before it).
      const recent = new Date(NOW.getTime() - 60_000);
      for (let i = 0; i < 60; i++) {
        await insertVisit(server.db, recent, `long-${i}`, longPage);
      }
      await insertClick(server.db, recent, {
        utmSource: "uma-origem-com-nome-bem-comprido",
      });
      // The seed left the roll-ups up to date; the job brings in the two rows written since, as it would.
      await runRollups(server.db, "America/Sao_Paulo", NOW);
      const { page, close } = await openPage(server.baseUrl, { width: 390, height: 844 }, { now: NOW });
      await page.goto(server.baseUrl + "/pt-br/admin");
      await signIn(page);
      await page.locator("#conversion-by-source tbody tr").first().waitFor({ timeout: 20_000 });
      await page.locator("#rank-pages .ranking li").first().waitFor({ timeout: 20_000 });
      const wrap = await page.locator("#conversion-by-source .table-wrap").evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
      }));
      assert.ok(wrap.scroll <= wrap.client, `the table overflows its card: ${wrap.scroll} > ${wrap.client}`);
      const cut = await page.locator(".rank-name").evaluateAll((els) =>
        els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent)
      );
      assert.deepEqual(cut, []);
      assert.ok(await page.locator("#rank-pages .rank-name", { hasText: longPage }).isVisible());
      const small = await page.locator("main button:visible, main a.btn:visible").evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent?.trim(), h: el.getBoundingClientRect().height }))
          .filter((b) => b.h < 44)
      );
      assert.deepEqual(small, []);
      await close();
    }, NOW),
);

browserTest(
  "admin: thousands of leads — compact table, plan and origin filters, oldest first, page jump",
  () =>
    withAdmin(async (server) => {
      for (let i = 0; i < 60; i++) {
        await insertLead(
          server.db,
          sp(`2026-11-${String(1 + (i % 20)).padStart(2, "0")}T${String(10 + (i % 9))}:00:00`),
          {
            name: `Lead ${String(i).padStart(2, "0")}`,
            email: `lead${i}@example.com`,
            whatsapp: "+55 11 91234-5678",
            plan: i % 3 ? "pro" : "premium",
            planLabel: i % 3 ? "Pro" : "Premium",
            utmSource: i % 2 ? "google" : "facebook",
          },
        );
      }
      const { page, close } = await openPage(server.baseUrl, undefined, { now: FIXED_NOW });
      await page.goto(server.baseUrl + "/pt-br/admin");
      await signIn(page);
      assert.match(
        await page.evaluate(() => getComputedStyle(document.body).fontFamily),
        /^"Inter Variable"/,
      );
      await page.getByRole("button", { name: "Tabela" }).click();
      const rows = page.locator(".lead-table tbody tr");
      await rows.first().waitFor({ timeout: 20_000 });
      assert.equal(await rows.count(), 25);
      assert.deepEqual(
        await page.locator(".lead-table thead th").allInnerTexts(),
        ["NOME", "PLANO", "CONTATO", "ORIGEM", "CRIATIVO / PALAVRA-CHAVE", "DATA"],
      );
      assert.equal(await page.getByTestId("lead-page").innerText(), "Página 1 de 3");
      // Jump to the last page.
      await page.getByLabel("Ir para a página").fill("3");
      await page.getByRole("button", { name: "Ir", exact: true }).click();
      await page.getByTestId("lead-page").filter({ hasText: "Página 3 de 3" }).waitFor();
      // The previous page's rows stay on screen while the next page loads ("Atualizando…"): wait for the new ones.
      assert.equal(await waitFor(() => rows.count(), (n) => n === 10), 10);
      // Premium leads from facebook (i % 6 == 0: 10 of them), oldest first. The page belongs to the list it
      // was chosen in: under a new filter the list starts at page 1, and page 3 is never asked for with it.
      const asked: URLSearchParams[] = [];
      // What each list request got, to say why if the count below never shows (it timed out once in CI).
      const answers: string[] = [];
      page.on("request", (r) => {
        const url = new URL(r.url());
        if (url.pathname === "/api/leads") asked.push(url.searchParams);
      });
      page.on("requestfinished", async (r) => {
        const url = new URL(r.url());
        const status = (await r.response())?.status();
        if (url.pathname === "/api/leads") {
          answers.push(`${status} ${r.timing().responseEnd | 0} ms ${url.search}`);
        }
      });
      page.on("requestfailed", (r) => {
        if (new URL(r.url()).pathname === "/api/leads") {
          answers.push(`failed: ${r.failure()?.errorText} ${r.url()}`);
        }
      });
      await page.getByLabel("Plano").selectOption("premium");
      await page.getByLabel("Origem (utm_source)").fill("facebook");
      await page.getByLabel("Ordem").selectOption("oldest");
      // The limit only stops a hang: beside a flood loop and the whole suite (load 9–12) the three debounced
      // requests took over 10 s once.
      await page.locator("#leads .card-sub").filter({ hasText: "10 leads no período" }).waitFor({
        timeout: 30_000,
      }).catch(async (error) => {
        const card = await page.locator("#leads").innerText().catch(() => "(no card)");
        throw new Error(
          `${error.message}\nthe card: ${card.slice(0, 300)}\n/api/leads: ${answers.join("\n")}`,
        );
      });
      const dates = await waitFor(
        () => page.locator(".lead-table .lead-date").allInnerTexts(),
        (d) => d.length === 10,
      );
      assert.equal(dates.length, 10);
      assert.equal(dates[0], "01/11/2026 às 10:00");
      const href = await page.getByRole("link", { name: "Exportar CSV" }).getAttribute("href");
      assert.match(href!, /plan=premium&utmSource=facebook&sort=oldest/);
      const filtered = asked.filter((q) => q.get("plan") === "premium");
      assert.ok(filtered.length > 0, "the filtered list was asked for");
      assert.deepEqual(filtered.map((q) => q.get("offset")).filter((o) => o !== "0"), []);
      await close();
    }),
);
