import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, openPage, screenshot, serveApp, widerThanScreen } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { addDays, daysInclusive, monthOf, todayIn } from "../src/shared/dashboard_math.ts";
import { ERROR_TEXTS } from "../src/ui/admin/messages.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const NEW_PASSWORD = "outra-senha-456";

/** Waits for the toast with this title and description (only one is ever on screen). */
async function expectToast(page: Page, title: string, description: string) {
  const toast = page.getByTestId("toast").filter({ hasText: description });
  await toast.waitFor({ state: "visible", timeout: 10_000 });
  assert.equal(await page.getByTestId("toast").count(), 1);
  assert.equal(await toast.locator(".toast-title").innerText(), title);
  assert.equal(await toast.locator(".toast-description").innerText(), description);
}

async function signIn(page: Page, password: string) {
  await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 10_000 });
}

/** Waits until no card is loading any more. */
async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
    timeout: 20_000,
  });
  await page.locator("[data-testid=chart] canvas").waitFor({ timeout: 20_000 });
}

async function api<T>(page: Page, path: string): Promise<T> {
  return await page.evaluate(async (p) => (await fetch(p)).json(), path) as T;
}

const int = (n: number) => n.toLocaleString("pt-BR");

// The seed's, the server's and the browser's clock: 21 November 2026, 12:00 in São Paulo. This month has three
// weeks of data and last month all of it, whatever the real date (on the 1st, this month had no lead yet).
const NOW = FIXED_NOW;

browserTest("admin: sign in, read every section, change the period and the password, sign out", async () => {
  const server = await serveApp({}, { now: () => NOW });
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    const month = monthOf(todayIn("America/Sao_Paulo", NOW));
    const previous = monthOf(addDays(month.start, -1));
    // Last month and this one up to now: the period comparison has both sides.
    await seedAnalytics(server.db, {
      days: daysInclusive(previous.start, todayIn("America/Sao_Paulo", NOW)),
      visits: 4000,
      now: NOW,
    });

    // The server sends the checking state; it is real HTML before any script runs.
    const html = await (await fetch(server.baseUrl + "/pt-br/admin")).text();
    assert.match(html, /<html lang="pt-BR"/);
    assert.match(html, /Verificando autenticação\.\.\./);

    const { page, problems, close } = await openPage(server.baseUrl, undefined, { now: NOW });
    await page.goto(server.baseUrl + "/pt-br/admin");
    await page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
    assert.ok(await page.getByText("Entre com suas credenciais para acessar").isVisible());

    await page.getByRole("button", { name: "Entrar" }).click();
    await expectToast(page, "Campos obrigatórios", "Por favor, preencha email e senha.");

    await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
    await page.getByLabel("Senha", { exact: true }).fill("senha-errada");
    await page.getByRole("button", { name: "Entrar" }).click();
    await expectToast(page, "Erro no login", "E-mail ou senha inválidos.");

    await signIn(page, PASSWORD);
    await expectToast(page, "Login realizado", "Bem-vindo ao painel administrativo!");
    assert.equal(await page.getByTestId("admin-email").innerText(), EMAIL);
    await settled(page);

    // 1. The period defaults to the current month, shown dd/MM/yyyy.
    const dmy = (d: string) => d.split("-").reverse().join("/");
    assert.match(
      await page.getByTestId("period-range").innerText(),
      new RegExp(`^${dmy(month.start)} – ${dmy(month.end)}`),
    );
    // 2–4. Figures equal the API's for the period.
    const q = `startDate=${month.start}&endDate=${month.end}`;
    const summary = await api<{ current: { uniqueVisitors: number; leads: number } }>(
      page,
      `/api/tracking/summary?${q}`,
    );
    const stats = await api<{ clicks: number; conversions: number }>(page, `/api/tracking/stats?${q}`);
    assert.ok(summary.current.uniqueVisitors > 0 && stats.clicks > 0 && summary.current.leads > 0);
    assert.equal(await page.getByTestId("unique-visitors").innerText(), int(summary.current.uniqueVisitors));
    assert.equal(await page.getByTestId("clicks").innerText(), int(stats.clicks));
    assert.equal(await page.getByTestId("conversions").innerText(), int(stats.conversions));
    assert.equal(await page.getByTestId("total-leads").innerText(), int(summary.current.leads));
    // 5. The chart is drawn: its canvas has painted pixels.
    const painted = await page.locator("[data-testid=chart] canvas").evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return { n, height: canvas.getBoundingClientRect().height };
    });
    assert.ok(painted.n > 1000, "the chart painted something");
    assert.equal(Math.round(painted.height), 350);
    // 6. Lead cards; 7. rankings with "N visitas"; 8. the conversion table and its legend.
    assert.ok(await page.locator(".lead").count() > 0);
    assert.match(
      await page.locator(".lead-date").first().innerText(),
      /^\d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}$/,
    );
    for (const id of ["rank-sources", "rank-campaigns", "rank-pages"]) {
      assert.ok(await page.locator(`#${id} .ranking li`).count() > 0, id);
      assert.match(await page.locator(`#${id} .rank-visits`).first().innerText(), /^[\d.]+ visitas?$/);
    }
    assert.ok(await page.locator("#conversion-by-source tbody tr").count() > 0);
    assert.ok(await page.getByText("Excelente: 10% ou mais").isVisible());
    await screenshot(page, "admin-dashboard-1366.png", { fullPage: true });
    // The compact lead table, then back to the cards.
    await page.getByRole("button", { name: "Tabela" }).click();
    await page.locator(".lead-table tbody tr").first().waitFor();
    await screenshot(page.locator("#leads"), "admin-leads-table-1366.png");
    await page.getByRole("button", { name: "Cartões" }).click();

    // Change the period: last month's figures replace this month's.
    await page.getByRole("button", { name: "Mês passado" }).click();
    await page.getByTestId("period-range").filter({ hasText: dmy(previous.start) }).waitFor();
    await settled(page);
    const before = await api<{ current: { uniqueVisitors: number } }>(
      page,
      `/api/tracking/summary?startDate=${previous.start}&endDate=${previous.end}`,
    );
    await page.waitForFunction(
      (expected) => document.querySelector("[data-testid=unique-visitors]")?.textContent === expected,
      int(before.current.uniqueVisitors),
      { timeout: 10_000 },
    );

    // Change the password: validation toasts, then success; the fields clear and the panel stays open.
    await page.getByRole("button", { name: "Alterar Senha" }).click();
    const panel = page.locator("#password-panel");
    await panel.getByRole("button", { name: "Salvar nova senha" }).click();
    await expectToast(page, "Erro", "Por favor, preencha todos os campos.");
    await panel.getByLabel("Senha atual").fill(PASSWORD);
    await panel.getByLabel("Nova senha", { exact: true }).fill(NEW_PASSWORD);
    await panel.getByLabel("Confirmar nova senha").fill("outra-coisa");
    await panel.getByRole("button", { name: "Salvar nova senha" }).click();
    await expectToast(page, "Senhas não coincidem", "A nova senha e confirmação devem ser iguais.");
    // The server's password rule, worded in Portuguese: a guessable one, then only spaces.
    for (
      const [weak, text] of [
        ["flamengo2024", ERROR_TEXTS.password_too_weak],
        ["         ", ERROR_TEXTS.password_blank],
      ]
    ) {
      await panel.getByLabel("Nova senha", { exact: true }).fill(weak);
      await panel.getByLabel("Confirmar nova senha").fill(weak);
      await panel.getByRole("button", { name: "Salvar nova senha" }).click();
      await expectToast(page, "Erro", text);
    }
    await panel.getByLabel("Nova senha", { exact: true }).fill(NEW_PASSWORD);
    // A refusal shows the server's message (the answer's `message`).
    await panel.getByLabel("Senha atual").fill("not-the-password");
    await panel.getByLabel("Confirmar nova senha").fill(NEW_PASSWORD);
    await panel.getByRole("button", { name: "Salvar nova senha" }).click();
    await expectToast(page, "Erro", "Senha atual incorreta.");
    await panel.getByLabel("Senha atual").fill(PASSWORD);
    await panel.getByRole("button", { name: "Salvar nova senha" }).click();
    await expectToast(page, "Senha alterada", "Sua senha foi alterada com sucesso!");
    assert.equal(await panel.getByLabel("Senha atual").inputValue(), "");
    assert.ok(await panel.isVisible());

    // F8 reaches the toast region; a swipe right past 50 px dismisses the toast.
    await page.keyboard.press("F8");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "Notificações (F8)",
    );
    const box = (await page.getByTestId("toast").boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 90, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId("toast").waitFor({ state: "detached" });

    // Sign out.
    await page.getByRole("button", { name: "Sair" }).click();
    await expectToast(page, "Logout realizado", "Você foi desconectado com sucesso.");
    await page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
    // The browser reports each refused answer: the sign-in probe's 401, the two passwords refused by the rule
    // and the wrong current password (three 400s).
    const errors = problems.consoleErrors.filter((e) => !e.includes("401"));
    assert.equal(errors.filter((e) => e.includes("status of 400")).length, 3, errors.join("\n"));
    assert.deepEqual(errors.filter((e) => !e.includes("status of 400")), []);
    await close();

    // The phone layout, signed in with the new password.
    const phone = await openPage(server.baseUrl, { width: 390, height: 844 }, { now: NOW });
    await phone.page.goto(server.baseUrl + "/pt-br/admin");
    await phone.page.getByRole("heading", { name: "Área Administrativa" }).waitFor();
    await screenshot(phone.page, "admin-login-390.png");
    await signIn(phone.page, NEW_PASSWORD);
    await settled(phone.page);
    await phone.page.getByTestId("toast").waitFor({ state: "detached", timeout: 10_000 });
    await screenshot(phone.page, "admin-dashboard-390.png", { fullPage: true });
    await phone.page.getByRole("button", { name: "Tabela" }).click();
    await phone.page.locator(".lead-table tbody tr").first().waitFor();
    await screenshot(phone.page.locator("#leads"), "admin-leads-table-390.png");
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.equal(overflow, 0, `no horizontal scrolling at 390 px: ${await widerThanScreen(phone.page)}`);
    assert.deepEqual(phone.problems.consoleErrors, []);
    await phone.close();
  } finally {
    await server.close();
  }
});
