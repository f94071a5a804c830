// One word, one formula, on screen (docs/METRICS.md): every figure's name comes from the glossary, as a button
// whose tooltip is the glossary's text, reachable by keyboard and read as the button's description; the
// dashboard's words are the glossary's (GA4's channel names, "Direto", "E-mail", no English titles).
import assert from "node:assert/strict";
import { browserTest, FIXED_NOW, openPage, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { daysInclusive, monthOf, todayIn } from "../src/shared/dashboard_math.ts";
import { type MetricId, METRICS } from "../src/shared/metrics.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
// The seed's, the server's and the browser's clock: 21 November 2026, 12:00 in São Paulo. With the real clock, a
// run across the last midnight of a month seeded one month and showed the next, empty one.
const NOW = FIXED_NOW;

browserTest("admin: every figure has the glossary's name and tooltip, by mouse and by keyboard", async () => {
  const server = await serveApp({}, { now: () => NOW });
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    const month = monthOf(todayIn("America/Sao_Paulo", NOW));
    await seedAnalytics(server.db, {
      days: daysInclusive(month.start, todayIn("America/Sao_Paulo", NOW)),
      visits: 3000,
      now: NOW,
    });
    const { page, close } = await openPage(server.baseUrl, { width: 1366, height: 900 }, { now: NOW });
    await page.goto(server.baseUrl + "/pt-br/admin");
    await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
    await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.locator("#channels tbody tr").first().waitFor({ timeout: 30_000 });
    await page.locator("#conversion-by-source tbody tr").first().waitFor({ timeout: 30_000 });
    await page.locator("#funnel .funnel li").first().waitFor({ timeout: 30_000 });
    await page.getByTestId("sessions").waitFor({ timeout: 30_000 });
    await page.getByTestId("live-visitors").waitFor({ timeout: 30_000 });
    await page.locator("#page-time .ranking li").first().waitFor({ timeout: 30_000 });

    // Each "?" is described by a tooltip holding its term's text, and named after the term.
    const helps = await page.locator("button.term-help").evaluateAll((buttons) =>
      buttons.map((b) => ({
        id: b.getAttribute("data-term"),
        name: b.textContent,
        tip: document.getElementById(b.getAttribute("aria-describedby") ?? "")?.textContent ?? null,
        role: document.getElementById(b.getAttribute("aria-describedby") ?? "")?.getAttribute("role"),
      }))
    );
    const seen = new Set(helps.map((h) => h.id));
    for (
      const id of [
        "uniqueVisitors",
        "visitorsPerDay",
        "planClicks",
        "whatsappClicks",
        "conversions",
        "conversionRate",
        "totalLeads",
        "periodLeads",
        "leadsPerDay",
        "leads",
        "visits",
        "entries",
        "sessions",
        "pagesPerVisit",
        "bounceRate",
        "timeOnPage",
        "visitDuration",
        "liveVisitors",
      ] as MetricId[]
    ) assert.ok(seen.has(id), `no tooltip for ${id}`);
    for (const h of helps) {
      const term = METRICS[h.id as MetricId];
      // The term's name, or its first or last word in a narrow table column ("Cliques", "Taxa", "WhatsApp").
      assert.ok(
        term.name.startsWith(h.name ?? "-") || term.name.endsWith(` ${h.name}`),
        `${h.name} is not ${term.name}`,
      );
      assert.equal(h.tip, term.tip);
      assert.equal(h.role, "tooltip");
    }

    // Hidden until asked; shown on hover and on keyboard focus, closed with Escape.
    const rate = page.locator('#conversions button.term-help[data-term="conversionRate"]');
    const tip = page.locator("#conversions .term-tip", { hasText: METRICS.conversionRate.tip });
    assert.equal(await tip.isVisible(), false);
    await rate.hover();
    await tip.waitFor({ state: "visible", timeout: 2_000 });
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: "hidden", timeout: 2_000 });
    await rate.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await tip.waitFor({ state: "visible", timeout: 2_000 });
    await page.keyboard.press("Escape");
    await tip.waitFor({ state: "hidden", timeout: 2_000 });

    // The same words everywhere: the glossary's names, GA4's channel names, no English titles.
    const text = await page.locator("main").innerText();
    for (
      const old of [
        "Visitas únicas",
        "Cliques nos botões",
        "UTM Source",
        "UTM Campaign",
        "Sem origem (direto)",
      ]
    ) {
      assert.ok(!text.includes(old), `still on screen: ${old}`);
    }
    for (const old of ["Pago — busca", "Busca orgânica", "direto / (none)"]) {
      assert.ok(!text.includes(old), `still on screen: ${old}`);
    }
    const channels = await page.locator("#channels tbody th").allInnerTexts();
    assert.ok(channels.includes("Pesquisa paga"), channels.join(", "));
    assert.ok(channels.includes("Direto"), channels.join(", "));
    const sources = await page.locator("#rank-traffic-sources .rank-name").allInnerTexts();
    assert.ok(sources.some((s) => s.trim().endsWith("Direto")), sources.join(", "));
    await close();
  } finally {
    await server.close();
  }
});
