// Engagement in a real browser: the public page sends its visible time when it is hidden (hidden time left
// out), and the dashboard's "Agora" asks every 30 s while its tab is visible and never while it is hidden.
// The page's clock is Playwright's (install, then runFor), its visibility emulated: a headless tab is always
// "visible", so document.visibilityState reads a value the test sets and the test fires visibilitychange.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, FIXED_NOW, openPage, screenshot, serveApp, UPDATE_SCREENSHOTS } from "./browser.ts";
import { requestsSeen, visitor, waitFor } from "./visitor.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { seedAnalytics } from "../testing/seed.ts";
import { daysInclusive, monthOf, todayIn } from "../src/shared/dashboard_math.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
// The dashboard test's clock (the seed's, the server's and the browser's): 21 November 2026, 12:00 in São Paulo.
// With the real clock, a run across the last midnight of a month seeded one month and showed the next, empty one.
const NOW = FIXED_NOW;

const EMULATED_VISIBILITY = () => {
  const w = globalThis as unknown as { __visibility: DocumentVisibilityState };
  w.__visibility = "visible";
  Object.defineProperty(Document.prototype, "visibilityState", { get: () => w.__visibility });
  Object.defineProperty(Document.prototype, "hidden", { get: () => w.__visibility === "hidden" });
};

async function setVisibility(page: Page, state: "visible" | "hidden") {
  await page.evaluate((s) => {
    (globalThis as unknown as { __visibility: string }).__visibility = s;
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  }, state);
}

interface Beacon {
  source: string;
  sessionId: string;
  engagedMs: number;
}

browserTest("engagement: a beacon per hide carries the visible time only, and is stored", async () => {
  const server = await serveApp();
  // A desktop Chrome's user agent: a headless one is a bot, whose events are not stored.
  const { context, page, errors } = await visitor(server, { width: 390, height: 844 });
  try {
    await page.addInitScript(EMULATED_VISIBILITY);
    await page.clock.install();
    const beacons: Beacon[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/tracking/engagement")) beacons.push(JSON.parse(req.postData() ?? "{}"));
    });
    await page.goto(server.baseUrl + "/pt-br/clientes?utm_source=google");
    await page.waitForSelector("html[data-hydrated=true]");
    // 20 s visible, then hidden: one beacon of about 20 s (plus the moments the page took to start).
    await page.clock.runFor(20_000);
    await setVisibility(page, "hidden");
    await waitFor(() => Promise.resolve(beacons.length), (n) => n >= 1);
    await requestsSeen(page);
    assert.equal(beacons.length, 1, JSON.stringify(beacons));
    assert.equal(beacons[0].source, "/pt-br/clientes?utm_source=google");
    assert.ok(beacons[0].engagedMs >= 20_000 && beacons[0].engagedMs < 23_000, String(beacons[0].engagedMs));
    // Two minutes hidden, then 10 s visible and hidden again: the second beacon holds the 10 s alone.
    await page.clock.runFor(120_000);
    await setVisibility(page, "visible");
    await page.clock.runFor(10_000);
    await setVisibility(page, "hidden");
    await waitFor(() => Promise.resolve(beacons.length), (n) => n >= 2);
    await requestsSeen(page);
    assert.equal(beacons.length, 2);
    assert.ok(beacons[1].engagedMs >= 10_000 && beacons[1].engagedMs < 11_500, String(beacons[1].engagedMs));
    assert.equal(beacons[1].sessionId, beacons[0].sessionId);
    // Hidden twice in a row (visibilitychange then pagehide): nothing new to send, no third beacon.
    await page.evaluate(() => dispatchEvent(new PageTransitionEvent("pagehide")));
    await requestsSeen(page);
    assert.equal(beacons.length, 2);
    // Both stored, under the page key, with the session of the page view and nothing about the visitor.
    let rows: { source: string; session_id: string; engaged_ms: number }[] = [];
    for (let i = 0; i < 50 && rows.length < 2; i++) {
      rows = await server.db.query("select source, session_id, engaged_ms from engagements order by id");
      if (rows.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(rows.map((r) => r.engaged_ms), beacons.map((b) => b.engagedMs));
    assert.ok(rows.every((r) => r.source === "/pt-br/clientes?utm_source=google"));
    const [visit] = await server.db.query<{ session_id: string }>("select session_id from visits");
    assert.equal(rows[0].session_id, visit.session_id);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
  }
});

browserTest("agora: polls every 30 s while the tab is visible, never while hidden", async () => {
  const server = await serveApp();
  const { context, page, errors } = await visitor(server);
  try {
    await bootstrapAdmin(server.db, EMAIL, PASSWORD);
    await page.addInitScript(EMULATED_VISIBILITY);
    await page.clock.install();
    const asked: number[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/tracking/live")) asked.push(Date.now());
    });
    // A visitor on the home page right now.
    await page.goto(server.baseUrl + "/pt-br");
    await page.waitForSelector("html[data-hydrated=true]");
    await page.goto(server.baseUrl + "/pt-br/admin");
    await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
    await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.getByTestId("live-visitors").waitFor();
    assert.equal(await page.getByTestId("live-visitors").innerText(), "1");
    assert.match(await page.locator("#live .live-pages").innerText(), /\/pt-br\s+1 visitante/);
    // The n-th request is waited for; then every request the page started is seen, and there is no other.
    const askedExactly = async (n: number, message?: string) => {
      await waitFor(() => Promise.resolve(asked.length), (k) => k >= n);
      await requestsSeen(page);
      assert.equal(asked.length, n, message);
    };
    // The page has taken in a new answer: its time is on screen. The query restarts its 30 s interval when an
    // answer comes in, so the clock must not run on before that (the next request would come 30 s later).
    let updated = "";
    const answered = async () => {
      const shown = () => page.getByTestId("live-updated").innerText();
      updated = await waitFor(shown, (text) => text !== updated);
    };
    await askedExactly(1);
    await answered();
    await page.clock.runFor(30_000);
    await askedExactly(2, "asked again after 30 s");
    await answered();
    await page.clock.runFor(30_000);
    await askedExactly(3);
    await answered();
    // Hidden for five minutes: not one request.
    await setVisibility(page, "hidden");
    await page.clock.runFor(300_000);
    await askedExactly(3, "no request while hidden");
    // Visible again: asked at once (its answer is older than 30 s), then every 30 s.
    await setVisibility(page, "visible");
    await askedExactly(4, "asked on coming back");
    await answered();
    await page.clock.runFor(30_000);
    await askedExactly(5);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
  }
});

browserTest(
  "engagement: the dashboard's cards, 'Agora' and 'Tempo na página' at 1366 and 390 px",
  async () => {
    const server = await serveApp({}, { now: () => NOW });
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      const month = monthOf(todayIn("America/Sao_Paulo", NOW));
      await seedAnalytics(server.db, {
        days: daysInclusive(month.start, todayIn("America/Sao_Paulo", NOW)),
        visits: 3000,
        now: NOW,
      });
      for (const width of [1366, 390]) {
        const { page, close, problems } = await openPage(server.baseUrl, { width, height: 900 });
        try {
          await page.clock.setFixedTime(NOW);
          await page.goto(server.baseUrl + "/pt-br/admin");
          await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
          await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
          await page.getByRole("button", { name: "Entrar" }).click();
          await page.getByTestId("sessions").waitFor({ timeout: 30_000 });
          await page.locator("#page-time .ranking li").first().waitFor({ timeout: 30_000 });
          await page.getByTestId("live-visitors").waitFor();
          // The figures on screen are the API's.
          const summary = await page.evaluate(async (q) => {
            const res = await fetch(`/api/tracking/engagement?${q}`);
            return await res.json();
          }, `startDate=${month.start}&endDate=${month.end}`);
          assert.ok(summary.current.sessions > 0 && summary.current.engagedMs > 0);
          const int = (n: number) => new Intl.NumberFormat("pt-BR").format(n);
          assert.equal(await page.getByTestId("sessions").innerText(), int(summary.current.sessions));
          assert.equal(await page.getByTestId("page-views").innerText(), int(summary.current.pageViews));
          assert.match(await page.getByTestId("bounce-rate").innerText(), /^\d+,\d%$/);
          assert.match(await page.getByTestId("visit-duration").innerText(), /^(\d+min \d{2}s|\d+s)$/);
          // Rankings that count page views say so in their header.
          assert.equal(
            await page.locator("#rank-pages [data-term=visits]").innerText(),
            "Visualizações de página",
          );
          if (UPDATE_SCREENSHOTS) {
            // The sign-in toast gone, so it covers no card in the pictures.
            await page.getByText("Login realizado").waitFor({ state: "hidden", timeout: 15_000 });
            await page.locator("#engagement").scrollIntoViewIfNeeded();
            await screenshot(page.locator("#engagement"), `admin-engagement-${width}.png`);
            await screenshot(page.locator("#live"), `admin-live-${width}.png`);
            await screenshot(page.locator("#page-time"), `admin-page-time-${width}.png`);
          }
          assert.deepEqual(problems.consoleErrors, []);
        } finally {
          await close();
        }
      }
    } finally {
      await server.close();
    }
  },
);
