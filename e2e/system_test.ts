// The dashboard's "Saúde do sistema": each background job's last run as recorded in job_runs, a failing
// lead destination, and the build's version in the footer.
import assert from "node:assert/strict";
import { browserTest, openPage, screenshot, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { recordJobRun } from "../src/db/job_runs.ts";
import { noteDeliveryOutcome } from "../src/db/delivery_alerts.ts";
import { readBuildVersion } from "../src/server/assets.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";

browserTest(
  "admin: Saúde do sistema shows each job's last run, failures, late jobs and the version",
  async () => {
    const server = await serveApp();
    const { page, problems, close } = await openPage(server.baseUrl);
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      const base = { runs: 1, failedRuns: 0, status: "done" as const };
      await recordJobRun(server.db, {
        ...base,
        name: "rollups",
        everyMs: 300_000,
        startedAt: ago(2),
        finishedAt: ago(2),
        durationMs: 184,
        result: { through: "2026-11-26", days: 1, rankRows: 40, sourceRows: 6, channelRows: 5 },
      });
      await recordJobRun(server.db, {
        ...base,
        name: "lead-delivery",
        everyMs: 60_000,
        startedAt: ago(1),
        finishedAt: ago(0),
        runs: 30,
        durationMs: 930,
        result: { delivered: 3, retrying: 2, failed: 0 },
      });
      await recordJobRun(server.db, {
        ...base,
        name: "purge-raw-events",
        everyMs: 3_600_000,
        startedAt: ago(40),
        finishedAt: ago(40),
        durationMs: 2310,
        result: {
          boundary: "2025-10-22T03:00:00.000Z",
          visits: 1520,
          clicks: 88,
          conversions: 12,
          visitorKeys: 0,
        },
      });
      await recordJobRun(server.db, {
        ...base,
        name: "purge-sessions",
        everyMs: 3_600_000,
        startedAt: ago(5 * 60),
        finishedAt: ago(5 * 60),
        durationMs: 4,
        result: { sessions: 0 },
      });
      await recordJobRun(server.db, {
        name: "meta-delivery",
        everyMs: 60_000,
        startedAt: ago(1),
        finishedAt: ago(1),
        runs: 1,
        failedRuns: 1,
        status: "failed",
        durationMs: 1502,
        result: {},
        error: "sem resposta em 1.5 s",
      });
      await noteDeliveryOutcome(server.db, "trello", false, ago(12));
      await noteDeliveryOutcome(server.db, "trello", false, ago(12));

      await page.goto(`${server.baseUrl}/pt-br/admin`);
      await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
      await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Entrar" }).click();
      const panel = page.locator("#saude");
      await panel.getByTestId("job-rollups").waitFor({ timeout: 20_000 });

      assert.equal(await panel.getByRole("heading").first().innerText(), "Saúde do sistema");
      assert.match(await panel.getByRole("alert").innerText(), /Entregas para Trello falhando desde/);
      const item = (name: string) => panel.getByTestId(`job-${name}`).innerText();
      assert.match(await item("rollups"), /Consolidação do painel\s+OK/);
      assert.match(await item("rollups"), /184 ms/);
      assert.match(await item("rollups"), /Resultado: 1 dia consolidado/);
      assert.match(await item("lead-delivery"), /30 execuções desde .*, média de 31 ms/);
      assert.match(await item("lead-delivery"), /3 leads entregues, 2 novas tentativas/);
      assert.match(
        await item("purge-raw-events"),
        /1\.520 visitas apagadas, 88 cliques apagados, 12 conversões/,
      );
      assert.match(await item("meta-delivery"), /Falhou/);
      assert.match(await item("meta-delivery"), /Erro: sem resposta em 1\.5 s/);
      assert.match(await item("purge-sessions"), /Atrasada/);
      assert.match(await item("purge-sessions"), /Resultado: nada a fazer/);

      const version = await readBuildVersion();
      assert.equal(await page.getByTestId("app-version").innerText(), `ZapFlow · versão ${version}`);
      await screenshot(panel, "admin-system-health-1366.png");
      assert.deepEqual(problems, { consoleErrors: [], failedRequests: [] });
    } finally {
      await close();
      await server.close();
      await server.db.close();
    }
  },
);
