import assert from "node:assert/strict";
import { browserTest, openPage, screenshot, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { insertLead, type NewLead } from "../src/db/leads.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";

function lead(
  name: string,
  email: string,
  whatsapp: string,
  plan: NewLead["plan"],
  planLabel: string,
): NewLead {
  return {
    idempotencyKey: null,
    name,
    email,
    whatsapp,
    plan,
    planLabel,
    utmSource: null,
    utmCampaign: null,
    utmMedium: null,
    page: "/pt-br",
    submittedAt: new Date(),
  };
}

for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`admin LGPD panel at ${viewport.width} px: find a person by phone, export, erase`, async () => {
    const server = await serveApp();
    const { page, problems, close } = await openPage(server.baseUrl, viewport);
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      await insertLead(
        server.db,
        lead("Maria Souza", "maria@example.com.br", "+55 (11) 98765-4321", "pro", "Pro"),
      );
      await insertLead(
        server.db,
        lead("Maria S.", "maria@example.com.br", "11 98765 4321", "micro", "Micro"),
      );
      await insertLead(
        server.db,
        lead("João Lima", "joao@example.com", "(21) 99876-5432", "premium", "Premium"),
      );

      await page.goto(server.baseUrl + "/pt-br/admin");
      await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
      await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Entrar" }).click();
      const panel = page.getByRole("region", { name: "Dados pessoais (LGPD)" });
      await panel.waitFor({ timeout: 20_000 });

      await panel.getByLabel("Telefone").check();
      await panel.getByLabel("Telefone (WhatsApp) da pessoa").fill("(11) 98765-4321");
      await panel.getByRole("button", { name: "Buscar" }).click();
      await panel.getByText("2 leads encontrados para").waitFor({ timeout: 10_000 });
      assert.deepEqual(await panel.locator(".lead-name").allInnerTexts(), ["Maria Souza", "Maria S."]);
      const href = await panel.getByRole("link", { name: "Exportar JSON" }).getAttribute("href");
      assert.equal(href, "/api/admin/lgpd/export?phone=%2811%29+98765-4321");
      const exported = await page.evaluate(async (h) => (await fetch(h!)).json(), href);
      assert.equal(exported.leads.length, 2);

      await panel.getByRole("button", { name: "Excluir definitivamente" }).click();
      const confirm = panel.getByRole("alertdialog");
      await confirm.waitFor();
      assert.match(await confirm.innerText(), /Esta ação não pode ser desfeita/);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `admin-lgpd-${viewport.width}.png`);
      await confirm.getByRole("button", { name: "Confirmar exclusão" }).click();
      const toast = page.getByTestId("toast").filter({ hasText: "2 leads excluídos definitivamente." });
      await toast.waitFor({ timeout: 10_000 });
      await panel.getByText("Nenhum lead encontrado para").waitFor();
      const left = await server.db.query<{ name: string }>("select name from leads");
      assert.deepEqual(left.map((r) => r.name), ["João Lima"]);

      // An invalid e-mail never reaches the list: the server's 400 becomes a toast.
      await panel.getByLabel("E-mail", { exact: true }).check();
      await panel.getByLabel("E-mail da pessoa").fill("não é email");
      await panel.getByRole("button", { name: "Buscar" }).click();
      await page.getByTestId("toast").filter({ hasText: "Informe um e-mail válido." }).waitFor({
        timeout: 10_000,
      });
      assert.deepEqual(problems.consoleErrors, []);
    } finally {
      await close();
      await server.close();
    }
  });
}
