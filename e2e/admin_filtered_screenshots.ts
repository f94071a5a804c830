// Screenshots of the dashboard under two filters (issue 29) at phone (390 px) and desktop (1366 px) widths,
// for review: `deno run -A e2e/admin_filtered_screenshots.ts` writes docs/screenshots/admin-filtered-*.png.
// Seeds 20,000 visits over 60 days (testing/seed.ts) and filters by the month's busiest channel and its
// busiest UTM source, as a reader would by clicking their rows.
import { build } from "../build.ts";
import { getBrowser, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { monthOf, todayIn } from "../src/shared/dashboard_math.ts";

await build();
const server = await serveApp();
const browser = await getBrowser();
try {
  await bootstrapAdmin(server.db, "dono@zapflow.com.br", "senha-forte-123");
  await seedAnalytics(server.db, { visits: 20_000, days: 60 });
  const month = monthOf(todayIn("America/Sao_Paulo"));
  const [top] = await server.db.query<{ channel: string; utm_source: string }>(
    `select channel, (select utm_source from visits w where w.channel = v.channel and w.occurred_at >= $1::date
                       and w.utm_source is not null group by 1 order by count(*) desc limit 1) as utm_source
       from visits v where occurred_at >= $1::date and channel is not null group by channel
      order by count(*) desc limit 1`,
    [month.start],
  );
  const query = new URLSearchParams({ f_channel: top.channel, f_utm_source: top.utm_source ?? "" });
  for (const [width, height, scale] of [[390, 2400, 1], [1366, 1500, 0.5]] as const) {
    const context = await browser.newContext({
      viewport: { width, height },
      deviceScaleFactor: scale,
      locale: "pt-BR",
      reducedMotion: "reduce",
    });
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}/pt-br/admin?${query}`);
    await tab.getByLabel("E-mail", { exact: true }).fill("dono@zapflow.com.br");
    await tab.getByLabel("Senha", { exact: true }).fill("senha-forte-123");
    await tab.getByRole("button", { name: "Entrar" }).click();
    await tab.getByRole("heading", { name: "Painel Administrativo" }).waitFor();
    await tab.waitForFunction(() => !document.querySelector(".card-loading, .chart-loading"), null, {
      timeout: 60_000,
    });
    // The sign-in toast goes away first.
    await tab.getByTestId("toast").waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
    await tab.screenshot({ path: `docs/screenshots/admin-filtered-${width}.png` });
    await context.close();
  }
} finally {
  await server.close();
}
