// A lead's way to the sales team as people see it: a visitor submits the pricing form, the administrator
// watches each destination turn "Entregue", a stopped destination stay "Pendente" with its next try (never
// "Falhou" while it is retried), "Reenviar" deliver it once it is back, and a destination that refuses the
// lead show "Falhou". The visitor's redirect keeps its 800 ms with every destination down.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, openPage, screenshot, serveApp, type Served } from "./browser.ts";
import { land, leadAnsweredAt, planButton, visitor, waitFor } from "./visitor.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { leadDeliveryJob } from "../src/services/lead_delivery.ts";
import { startJob } from "../src/services/jobs.ts";
import { fakePipefy, fakeSmtp, fakeTrello, fakeWebhook } from "../testing/delivery_fakes.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const SECRET = "whsec_" + btoa("0123456789abcdef0123456789abcdef");
const DESTINATIONS = ["webhook", "pipefy", "trello", "email"] as const;

/** Submits the Pro plan's form; returns the ms between the saved lead's answer and the checkout redirect. */
async function submitLead(server: Served, name: string): Promise<number> {
  const v = await visitor(server);
  try {
    await land(v.page, v.base + "/pt-br/?utm_source=google&utm_campaign=black-friday&utm_medium=cpc");
    await planButton(v.page, "Pro").click();
    const dialog = v.page.getByRole("dialog");
    await dialog.getByLabel("Nome").fill(name);
    await dialog.getByLabel("E-mail").fill(`${name.split(" ")[0].toLowerCase()}@empresa.com.br`);
    await dialog.getByLabel("WhatsApp").fill("(11) 98765-4321");
    const saved = v.page.waitForResponse((r) => r.url().endsWith("/api/leads"));
    await dialog.getByRole("button", { name: "Continuar" }).click();
    const res = await saved;
    assert.equal(res.status(), 201);
    const savedAt = await leadAnsweredAt(v);
    await waitFor(() => Promise.resolve(v.external.length), (n) => n > 0, 10_000);
    assert.equal(v.errors.length, 0, v.errors.join("\n"));
    return Math.round(v.external[0].at - savedAt);
  } finally {
    await v.context.close();
  }
}

function delivery(page: Page, lead: string, destination: string) {
  return page.locator(".lead", { hasText: lead }).getByTestId(`delivery-${destination}`);
}

async function expectStatus(page: Page, lead: string, destination: string, status: string) {
  await delivery(page, lead, destination).locator(".delivery-status", { hasText: status }).waitFor({
    timeout: 20_000,
  });
}

browserTest(
  "lead deliveries: Entregue for each destination; a stopped one is pending with its next try, Reenviar delivers it; a refusal shows Falhou; redirect unchanged",
  async () => {
    const fakes = {
      webhook: fakeWebhook(SECRET),
      pipefy: fakePipefy("pipefy-token-abc123"),
      trello: fakeTrello("trello-key-0123", "trello-token-4567"),
      email: await fakeSmtp(),
    };
    const server = await serveApp({
      LEAD_WEBHOOK_URL: `${fakes.webhook.url}/hooks/leads`,
      LEAD_WEBHOOK_SECRET: SECRET,
      PIPEFY_TOKEN: "pipefy-token-abc123",
      PIPEFY_PIPE_ID: "301234567",
      PIPEFY_FIELDS: "name:nome,email:e_mail,whatsapp:whatsapp,plan:plano,origin:origem",
      PIPEFY_API_URL: `${fakes.pipefy.url}/graphql`,
      TRELLO_KEY: "trello-key-0123",
      TRELLO_TOKEN: "trello-token-4567",
      TRELLO_LIST_ID: "5f1e0c0ffee0c0ffee0c0ffe",
      TRELLO_API_URL: fakes.trello.url,
      SMTP_URL: `smtp://vendas:smtp-pass-999@127.0.0.1:${fakes.email.port}`,
      LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
      LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
    });
    const startWorker = () => startJob(leadDeliveryJob(server.db, server.deps.config, { every: 250 })!);
    let worker = startWorker();
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    const admin = await openPage(server.baseUrl);
    try {
      const upDelay = await submitLead(server, "Maria Souza");

      const page = admin.page;
      // The last 7 days hold the leads whatever the time now (this month would be a new, empty one after a run
      // across the last midnight of a month).
      await page.goto(server.baseUrl + "/pt-br/admin?periodo=ultimos-7-dias");
      await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
      await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Entrar" }).click();
      await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 10_000 });
      for (const d of DESTINATIONS) await expectStatus(page, "Maria Souza", d, "Entregue");
      assert.match(
        await delivery(page, "Maria Souza", "email").innerText(),
        /Entregue\s+\d\d\/\d\d às \d\d:\d\d/,
      );

      // Trello goes away; the next lead reaches the other three, and Trello's delivery is pending with its
      // next try, its number and the last error: being retried is not a failure.
      await fakes.trello.down();
      await submitLead(server, "João Lima");
      await page.getByRole("button", { name: "Atualizar" }).click();
      for (const d of ["webhook", "pipefy", "email"]) await expectStatus(page, "João Lima", d, "Entregue");
      const retrying = delivery(page, "João Lima", "trello");
      // (Each retry is a moment "Enviando"; the line settles back to the next one.)
      await retrying.filter({
        hasText:
          /^Trello\s*Pendente\s*Tentando de novo (em \d{2}\/\d{2} )?às \d{2}:\d{2}, tentativa \d+ · último erro: conexão recusada\s*Reenviar/,
      }).waitFor({ timeout: 20_000 });
      assert.equal(await retrying.getByText("Falhou").count(), 0);
      // The destinations panel says the same: pending, none failed.
      await page.locator("#destinos").getByTestId("destination-trello").getByText("0 falharam").waitFor();
      await screenshot(page.locator("#leads"), "lead-deliveries-1366.png");

      // The worker pauses while Trello comes back, so its own retry (due 1–8 s after the failure) cannot
      // deliver before the click: "Reenviar" is what delivers it, whatever the machine's load.
      await worker.stop();
      await fakes.trello.up();
      const resent = page.waitForResponse((r) =>
        new URL(r.url()).pathname === "/api/admin/deliveries/resend"
      );
      await delivery(page, "João Lima", "trello").getByRole("button", {
        name: "Reenviar para Trello",
        exact: true,
      }).click();
      assert.equal((await resent).status(), 202, "the resend was queued");
      worker = startWorker();
      await expectStatus(page, "João Lima", "trello", "Entregue");
      assert.equal(await delivery(page, "João Lima", "trello").getByRole("button").count(), 0);
      // One per lead to each destination. The SMTP server also carries the administrator's alerts (Trello
      // failing, then recovered: services/delivery_alerts.ts), which are not lead deliveries.
      const leadMails = fakes.email.received.filter((m) => m.to.includes("vendas@zapflow.com.br"));
      assert.equal(leadMails.length, 2, "email: one per lead");
      for (const d of DESTINATIONS.filter((d) => d !== "email")) {
        assert.equal(fakes[d].received.length, 2, `${d}: one per lead`);
      }

      // The destinations panel: each configured one, its last success, and not one secret on the page.
      await page.getByRole("button", { name: "Atualizar" }).click();
      const panel = page.locator("#destinos");
      await panel.getByTestId("destination-trello").getByText(/Última falha: .* — conexão recusada/)
        .waitFor();
      assert.equal(await panel.locator(".destination").count(), 4);
      const html = await page.content();
      for (
        const secret of [
          "pipefy-token-abc123",
          "trello-key-0123",
          "trello-token-4567",
          "smtp-pass-999",
          "0123456789abcdef",
        ]
      ) {
        assert.ok(!html.includes(secret), `${secret} on the page`);
      }
      await page.setViewportSize({ width: 390, height: 900 });
      await screenshot(page.locator("#leads"), "lead-deliveries-390.png");
      await screenshot(panel, "lead-destinations-390.png");

      // Every destination down (the webhook up, but refusing the lead with a 400): the visitor's redirect
      // still comes 800 ms after the saved lead.
      for (const fake of [fakes.pipefy, fakes.trello, fakes.email]) await fake.down();
      fakes.webhook.mode = "400";
      const downDelay = await submitLead(server, "Ana Prado");
      console.log(
        `redirect after a saved lead: ${upDelay} ms with every destination up, ${downDelay} ms with every ` +
          `destination down (load ${
            (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")
          })`,
      );
      // What this guards is the upper bound: destinations that are down never hold the visitor back. The
      // lower bound only says the 800 ms wait is there; it compares the browser's own response timing with
      // this process's clock, which drifted 160 ms apart once under a parallel CI run (638 ms).
      assert.ok(downDelay >= 500 && downDelay < 2000, `redirect came after ${downDelay} ms`);
      // Refused: failed for good, "Falhou" with the reason. Down: pending, retried.
      await page.getByRole("button", { name: "Atualizar" }).click();
      await expectStatus(page, "Ana Prado", "webhook", "Falhou");
      assert.match(await delivery(page, "Ana Prado", "webhook").innerText(), /Falhou\s+HTTP 400/);
      await expectStatus(page, "Ana Prado", "trello", "Pendente");
      await delivery(page, "Ana Prado", "trello").getByText(/Tentando de novo/).waitFor({ timeout: 20_000 });
      assert.deepEqual(admin.problems.consoleErrors, []);
    } finally {
      await admin.close();
      await worker.stop();
      for (const fake of Object.values(fakes)) await fake.down();
      await server.close();
    }
  },
);
