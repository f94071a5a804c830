// The dashboard tells the truth whatever the browser's time zone, notices an ended session, and its toasts
// close with the × button (issue 22).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, openPage, serveApp, type Served } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { insertLead, sp } from "../src/testing/analytics_fixture.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";

async function signIn(page: Page) {
  await page.getByLabel("Email").fill(EMAIL);
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

async function withAdmin(fn: (server: Served) => Promise<void>) {
  const server = await serveApp();
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
    await page.goto(server.baseUrl + "/pt-br/admin");
    await signIn(page);
    const toast = page.getByTestId("toast");
    await toast.waitFor({ state: "visible" });
    await toast.getByRole("button", { name: "Fechar notificação" }).click();
    await toast.waitFor({ state: "detached", timeout: 1_000 });
    await close();
  }));
