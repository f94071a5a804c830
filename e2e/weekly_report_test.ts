// The weekly report as people see it: the e-mail a local SMTP server received, rendered by Chromium at phone
// and desktop widths (nothing wider than the screen, the dashboard link there), and the dashboard's switch
// "Relatório semanal por e-mail: ligado/desligado", stored across a reload.
import assert from "node:assert/strict";
import { browserTest, getBrowser, openPage, screenshot, serveApp, UPDATE_SCREENSHOTS } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { weeklyReportJob } from "../src/services/weekly_report.ts";
import { setLogSink } from "../src/core/log.ts";
import { emptyDb } from "../testing/db.ts";
import { testConfig } from "../testing/app.ts";
import { fakeSmtp } from "../testing/delivery_fakes.ts";
import { readMail } from "../testing/mime.ts";
import { sp } from "../testing/analytics_fixture.ts";
import { seedWeeks } from "../testing/weekly_report_fixture.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";

browserTest("weekly report: the e-mail reads well in a browser at 390 and 1366 px", async () => {
  const db = await emptyDb("pglite");
  const smtp = await fakeSmtp();
  const restore = setLogSink(() => {});
  try {
    await seedWeeks(db);
    await db.query("insert into admins (email, password_hash) values ($1, 'x')", [EMAIL]);
    const config = testConfig({
      PUBLIC_ORIGIN: "https://www.zapflow.com.br",
      SMTP_URL: smtp.url,
      LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
      LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
    });
    // Leads per state come from another part of the product; here, a fixed list shows the section.
    const job = weeklyReportJob(db, config, {
      leadsByState: (range) =>
        Promise.resolve(
          range.start === "2026-11-16" ? [{ state: "SP", leads: 1 }, { state: "RJ", leads: 1 }] : [{
            state: "SP",
            leads: 1,
          }],
        ),
    })!;
    await job.run(db, sp("2026-11-23T09:00:00"));
    job.close?.();
    const { html, text } = readMail(smtp.received[0].raw);
    if (UPDATE_SCREENSHOTS) {
      // The message as the SMTP server received it, and its text part, beside its pictures.
      const dir = new URL("../docs/screenshots/issue-30/", import.meta.url);
      await Deno.writeTextFile(new URL("weekly-report-email.eml", dir), smtp.received[0].raw);
      await Deno.writeTextFile(new URL("weekly-report-email.txt", dir), text);
    }
    const context = await (await getBrowser()).newContext({ locale: "pt-BR" });
    try {
      for (const width of [390, 1366]) {
        const page = await context.newPage();
        await page.setViewportSize({ width, height: 900 });
        // The mail as a client shows it: no script, nothing loaded from elsewhere.
        await page.route("**/*", (route) => route.abort());
        await page.setContent(html);
        const sizes = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        assert.ok(sizes.scroll <= sizes.client, `nothing wider than ${width} px (${sizes.scroll})`);
        const link = page.getByRole("link", { name: "Ver esta semana no painel" });
        assert.equal(
          await link.getAttribute("href"),
          "https://www.zapflow.com.br/pt-br/admin?startDate=2026-11-16&endDate=2026-11-22",
        );
        assert.ok(await link.isVisible());
        const text = await page.locator("body").innerText();
        assert.match(text, /Visitantes únicos\s+8/);
        assert.match(text, /Leads por estado/);
        await screenshot(page, `issue-30/weekly-report-email-${width}.png`, { fullPage: true });
        await page.close();
      }
    } finally {
      await context.close();
    }
  } finally {
    restore();
    await smtp.down();
  }
});

browserTest("weekly report: the dashboard's switch turns the e-mail off and on, and stays", async () => {
  const server = await serveApp({
    SMTP_URL: "smtp://127.0.0.1:1",
    LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
    LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
    REPORT_TO: "socio@zapflow.com.br",
  });
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    await server.db.query(
      `insert into weekly_reports (week, status, attempts, next_attempt_at, sent_at, recipients)
       values ('2026-W47', 'sent', 1, $1, $1, 2)`,
      [new Date("2026-11-23T11:00:40Z")],
    );
    for (const width of [1366, 390]) {
      const { page, problems, close } = await openPage(server.baseUrl, { width, height: 900 });
      try {
        await page.goto(`${server.baseUrl}/pt-br/admin`);
        await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
        await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
        await page.getByRole("button", { name: "Entrar" }).click();
        const panel = page.locator("#relatorio-semanal");
        const toggle = panel.getByRole("switch");
        await toggle.waitFor({ timeout: 20_000 });
        assert.match(await toggle.innerText(), /Relatório semanal por e-mail: ligado/);
        assert.equal(await toggle.getAttribute("aria-checked"), "true");
        assert.match(await panel.innerText(), /Enviado para: dono@zapflow\.com\.br, socio@zapflow\.com\.br/);
        assert.match(
          await panel.getByTestId("weekly-report-last").innerText(),
          /Último envio: semana 47 de 2026, em 23\/11\/2026 às 08:00, para 2 destinatários\./,
        );
        await panel.scrollIntoViewIfNeeded();
        await screenshot(panel, `issue-30/weekly-report-switch-${width}.png`);
        await toggle.click();
        await page.waitForFunction(() =>
          document.querySelector("#relatorio-semanal [role=switch]")?.getAttribute("aria-checked") === "false"
        );
        assert.match(await toggle.innerText(), /Relatório semanal por e-mail: desligado/);
        await page.reload();
        await toggle.waitFor({ timeout: 20_000 });
        assert.equal(await toggle.getAttribute("aria-checked"), "false");
        assert.match(await toggle.innerText(), /desligado/);
        // Back on for the next width.
        await toggle.click();
        await page.waitForFunction(() =>
          document.querySelector("#relatorio-semanal [role=switch]")?.getAttribute("aria-checked") === "true"
        );
        assert.deepEqual(problems, { consoleErrors: [], failedRequests: [] });
      } finally {
        await close();
      }
    }
  } finally {
    await server.close();
  }
});
