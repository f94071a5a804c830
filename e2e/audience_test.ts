// Who the visitors are (issue 30) in a real browser: the audience panels load when scrolled to, show page
// views, plan clicks, leads and rate per device, browser, system, country and state, and a row's name filters
// the dashboard; "Leads por estado" reads each lead's WhatsApp DDD; the lead card shows its state.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, openPage, screenshot, serveApp } from "./browser.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { addDays, todayIn } from "../src/shared/dashboard_math.ts";
import { insertLead, insertTrackedEvent } from "../testing/analytics_fixture.ts";
import type { Audience } from "../src/db/event_columns.ts";
import type { Db } from "../src/db/client.ts";

const EMAIL = "dono@zapflow.com.br";
const PASSWORD = "senha-forte-123";
const TZ = "America/Sao_Paulo";
const at = (day: string, time: string) => new Date(`${day}T${time}-03:00`);

const KINDS: [number, Audience][] = [
  [38, {
    device: "mobile",
    browser: "Chrome",
    browserVersion: "124",
    os: "Android",
    osVersion: "14",
    country: "BR",
    region: "SP",
  }],
  [21, {
    device: "mobile",
    browser: "Safari",
    browserVersion: "17",
    os: "iOS",
    osVersion: "17",
    country: "BR",
    region: "RJ",
  }],
  [12, {
    device: "mobile",
    browser: "Instagram",
    browserVersion: "335",
    os: "iOS",
    osVersion: "17",
    country: "BR",
    region: "MG",
  }],
  [9, {
    device: "desktop",
    browser: "Chrome",
    browserVersion: "124",
    os: "Windows",
    osVersion: "10",
    country: "BR",
    region: "SP",
  }],
  [5, {
    device: "desktop",
    browser: "Edge",
    browserVersion: "120",
    os: "Windows",
    osVersion: "10",
    country: "PT",
    region: null,
  }],
  [3, {
    device: "tablet",
    browser: "Safari",
    browserVersion: "16",
    os: "iOS",
    osVersion: "16",
    country: "US",
    region: null,
  }],
  [2, {
    device: "desktop",
    browser: "Firefox",
    browserVersion: "126",
    os: "Linux",
    osVersion: null,
    country: "AR",
    region: null,
  }],
];

async function seed(db: Db, today: string) {
  let n = 0;
  for (const [count, audience] of KINDS) {
    for (let i = 0; i < count; i++) {
      for (const day of [today, addDays(today, -35)]) {
        if (day !== today && i % 2) continue; // the previous period: about half as many
        const session = `s${n++}`;
        const ev = {
          occurredAt: at(day, "00:20:00"),
          visitorKey: session.padStart(32, "0"),
          sessionId: session,
          source: "/pt-br",
          utmSource: null,
          utmCampaign: null,
          utmMedium: null,
          audience,
        };
        await insertTrackedEvent(db, "visits", ev);
        if (i % 3 === 0) {
          await insertTrackedEvent(db, "clicks", { ...ev, source: "pricing_pro_plan", clickKind: "plan" });
        }
      }
    }
  }
  const numbers = [
    "(11) 98765-4321",
    "(11) 97654-3210",
    "(21) 99876-5432",
    "(31) 98888-7777",
    "+351 912 345 678",
  ];
  for (const [i, whatsapp] of numbers.entries()) {
    await insertLead(db, at(today, `00:${30 + i}:00`), {
      name: `Lead ${i + 1}`,
      email: `l${i}@example.com`,
      whatsapp,
    });
  }
  await db.query(
    `update leads set device = 'mobile', browser = 'Chrome', os = 'Android', country = 'BR', region = 'SP',
       page = '/pt-br'`,
  );
}

async function signIn(page: Page) {
  await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor({ timeout: 10_000 });
}

async function audienceShown(page: Page) {
  await page.locator("#audience").scrollIntoViewIfNeeded();
  await page.locator("#audience-device tbody tr").first().waitFor({ timeout: 30_000 });
  await page.locator("#lead-states tbody tr").first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector("#audience .card-loading"), null, {
    timeout: 30_000,
  });
}

browserTest(
  "audience panels: devices, browsers, systems, countries, states and leads per state; a row filters",
  async () => {
    const server = await serveApp();
    try {
      await bootstrapAdmin(server.db, EMAIL, PASSWORD);
      const today = todayIn(TZ);
      await seed(server.db, today);
      const { page, problems, close } = await openPage(server.baseUrl, { width: 1366, height: 900 });
      await page.goto(server.baseUrl + "/pt-br/admin?periodo=ultimos-30-dias");
      await signIn(page);
      await page.getByTestId("toast").waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
      await audienceShown(page);
      const rows = async (id: string) =>
        (await page.locator(`#${id} tbody th`).allInnerTexts()).map((t) => t.trim());
      assert.deepEqual(await rows("audience-device"), ["Celular", "Computador", "Tablet"]);
      assert.deepEqual((await rows("audience-country")).slice(0, 2), ["Brasil", "Portugal"]);
      assert.deepEqual(await rows("audience-region"), [
        "São Paulo (SP)",
        "Rio de Janeiro (RJ)",
        "Minas Gerais (MG)",
        "Não identificado",
      ]);
      assert.deepEqual(await rows("lead-states"), [
        "São Paulo (SP)",
        "Minas Gerais (MG)",
        "Rio de Janeiro (RJ)",
        "Fora do Brasil ou não identificado",
      ]);
      await page.locator("#audience-device").scrollIntoViewIfNeeded();
      await screenshot(page, "issue-30/audience-1366.png");

      // A row's name filters the whole dashboard: the chip and the address say so, the panels follow.
      await page.locator("#audience-device").getByRole("button", { name: "Filtrar por Dispositivo: Tablet" })
        .click();
      await page.waitForURL(/f_device=tablet/);
      await page.waitForFunction(
        () =>
          document.querySelectorAll("#audience-browser tbody tr").length === 1 &&
          !document.querySelector("#audience .card-loading"),
        null,
        { timeout: 30_000 },
      );
      assert.deepEqual(await rows("audience-browser"), ["Safari"]);
      assert.match(
        await page.getByTestId("filter-bar").innerText(),
        /Tablet/,
      );
      assert.deepEqual(problems, { consoleErrors: [], failedRequests: [] });
      await close();

      const phone = await openPage(server.baseUrl, { width: 390, height: 844 });
      await phone.page.goto(server.baseUrl + "/pt-br/admin?periodo=ultimos-30-dias");
      await signIn(phone.page);
      await audienceShown(phone.page);
      await phone.page.locator("#audience-device").scrollIntoViewIfNeeded();
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `no sideways scroll (${overflow} px)`);
      await screenshot(phone.page, "issue-30/audience-390.png");
      await phone.page.locator("#lead-states").scrollIntoViewIfNeeded();
      await screenshot(phone.page, "issue-30/audience-states-390.png");
      await phone.close();
    } finally {
      await server.close();
    }
  },
);
