// The lead modal as a visitor uses it: real pricing buttons, real API and database, external checkout and
// WhatsApp hosts intercepted (e2e/visitor.ts: a desktop Chrome user agent, since headless ones are rightly
// treated as bots by the server and not counted).
import assert from "node:assert/strict";
import { browserTest, screenshot, serveApp, type Served } from "./browser.ts";
import { land, leadAnsweredAt, outboxFlushed, planButton, planDialog, visitor, waitFor } from "./visitor.ts";

const LANDING = "/pt-br/?utm_source=google&utm_campaign=black-friday&utm_medium=cpc";

async function rows<T>(server: Served, sql: string): Promise<T[]> {
  return await server.db.query<T>(sql);
}

browserTest(
  "lead modal: opens from each plan and the specialist button, records clicks and closes",
  async () => {
    const server = await serveApp();
    const v = await visitor(server);
    try {
      await land(v.page, v.base + LANDING);
      for (const plan of ["Micro", "Pro", "Premium"]) {
        const button = planButton(v.page, plan);
        await planDialog(v, button);
        const dialog = v.page.getByRole("dialog", { name: `Assinar o plano ${plan}` });
        await dialog.waitFor({ timeout: 1000 });
        assert.equal(await v.page.evaluate(() => document.activeElement?.id), "lead-name");
        await dialog.getByRole("button", { name: "Cancelar" }).click();
        await dialog.waitFor({ state: "hidden" });
        assert.ok(
          await button.evaluate((el) => el === document.activeElement),
          "focus returns to the button",
        );
      }
      await v.page.getByRole("button", { name: "Falar com um especialista" }).click();
      const specialist = v.page.getByRole("dialog", { name: "Falar com um especialista" });
      await specialist.waitFor();
      await v.page.keyboard.press("Escape");
      await specialist.waitFor({ state: "hidden" });

      const clicks = await waitFor(
        () =>
          rows<{ source: string; utm_source: string }>(
            server,
            "select source, utm_source from clicks order by id",
          ),
        (r) => r.length === 4,
      );
      assert.deepEqual(clicks.map((c) => c.source), [
        "pricing_micro_plan",
        "pricing_pro_plan",
        "pricing_premium_plan",
        "pricing_specialist_enterprise",
      ]);
      assert.ok(clicks.every((c) => c.utm_source === "google"));
      const events = await v.page.evaluate(() =>
        (globalThis as unknown as { dataLayer: { event: string; event_label: string }[] }).dataLayer
          .map((e) => `${e.event}:${e.event_label}`)
      );
      for (
        const e of [
          "pricing_plan_click:micro",
          "pricing_plan_click:premium",
          "pricing_specialist_click:specialist",
          "lead_modal_close:Pro",
          "lead_modal_close:Especialista",
        ]
      ) {
        assert.ok(events.includes(e), `${e} in ${events.join(", ")}`);
      }
      const visits = await rows<{ source: string }>(server, "select source from visits");
      // Stored under its page key: the trailing slash folded (src/shared/page_key.ts).
      assert.deepEqual(visits.map((r) => r.source), [LANDING.replace("/pt-br/?", "/pt-br?")]);
      assert.deepEqual(v.errors, []);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "lead modal: each field's error appears on submit and clears when that field is typed in",
  async () => {
    const server = await serveApp();
    const v = await visitor(server, { width: 390, height: 844 });
    try {
      await land(v.page, v.base + "/pt-br/");
      const dialog = await planDialog(v, planButton(v.page, "Pro"));
      await dialog.getByRole("button", { name: "Continuar" }).click();
      const error = (f: string) => v.page.locator(`#lead-${f}-error`);
      assert.equal(await error("name").textContent(), "Informe seu nome.");
      assert.equal(await error("email").textContent(), "Informe seu e-mail.");
      assert.equal(await error("whatsapp").textContent(), "Informe seu número de WhatsApp.");
      const name = dialog.getByLabel("Nome");
      assert.equal(await name.getAttribute("aria-invalid"), "true");
      assert.equal(await name.getAttribute("aria-describedby"), "lead-name-error");
      assert.equal(await v.page.evaluate(() => document.activeElement?.id), "lead-name");

      await name.fill("Maria");
      assert.equal(await error("name").count(), 0);
      assert.equal(await name.getAttribute("aria-invalid"), null);
      assert.equal(await error("email").count(), 1, "other errors stay");

      await dialog.getByLabel("E-mail").fill("maria@empresa");
      await dialog.getByRole("button", { name: "Continuar" }).click();
      assert.equal(await error("email").textContent(), "Informe um e-mail válido, como nome@empresa.com.br.");
      await dialog.getByLabel("WhatsApp").fill("11 98765-4321");
      assert.equal(await error("whatsapp").count(), 0);
      await screenshot(v.page, "lead-modal-errors-390.png");
      assert.equal((await rows(server, "select id from leads")).length, 0, "nothing sent while invalid");
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "lead modal: a valid lead is stored with its UTM origin and the checkout opens ~800 ms later with UTM",
  async () => {
    const server = await serveApp();
    const v = await visitor(server);
    try {
      await land(v.page, v.base + LANDING);
      await land(v.page, v.base + "/pt-br/clientes"); // UTM kept for the session across pages
      await land(v.page, v.base + "/pt-br/#precos");
      await planButton(v.page, "Pro").click();
      const dialog = v.page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("  Maria Souza ");
      await dialog.getByLabel("E-mail").fill("maria@empresa.com.br");
      await dialog.getByLabel("WhatsApp").fill("(11) 98765-4321");
      await screenshot(v.page, "lead-modal-1366.png");
      const saved = v.page.waitForResponse((r) => r.url().endsWith("/api/leads"));
      await dialog.getByRole("button", { name: "Continuar" }).click();
      const res = await saved;
      const savedAt = await leadAnsweredAt(v);
      assert.equal(res.status(), 201);
      await waitFor(() => Promise.resolve(v.external.length), (n) => n > 0);
      const delay = Math.round(v.external[0].at - savedAt);
      console.log(`redirect after a saved lead: ${delay} ms`);
      assert.ok(delay >= 700, `redirect came after ${delay} ms`);
      const url = new URL(v.external[0].url);
      assert.equal(url.origin + url.pathname, "https://app.zapflow.com.br/checkout/pro");
      assert.equal(url.searchParams.get("utm_source"), "google");
      assert.equal(url.searchParams.get("utm_campaign"), "black-friday");
      assert.equal(url.searchParams.get("utm_medium"), "cpc");

      const leads = await rows<Record<string, unknown>>(
        server,
        "select name, email, whatsapp, plan, plan_label, utm_source, utm_campaign, utm_medium from leads",
      );
      assert.deepEqual(leads, [{
        name: "Maria Souza",
        email: "maria@empresa.com.br",
        whatsapp: "(11) 98765-4321",
        plan: "pro",
        plan_label: "Pro",
        utm_source: "google",
        utm_campaign: "black-friday",
        utm_medium: "cpc",
      }]);
      const conversions = await waitFor(
        () => rows<{ source: string }>(server, "select source from conversions"),
        (r) => r.length > 0,
      );
      assert.deepEqual(conversions.map((c) => c.source), ["pricing_pro_plan"]);
      // Sent once: the lead left the outbox, so a later page load records nothing more.
      await v.page.waitForURL(/^https:\/\/app\.zapflow\.com\.br\//);
      await land(v.page, v.base + "/pt-br/");
      await outboxFlushed(v.page);
      assert.equal(await v.page.evaluate(() => localStorage.getItem("zapflow.leadOutbox")), null);
      assert.equal((await rows(server, "select id from conversions")).length, 1);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest("lead modal: the submit button shows an ellipsis and is disabled while sending", async () => {
  const server = await serveApp();
  const v = await visitor(server);
  try {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await v.context.route("**/api/leads", async (route) => {
      await held;
      await route.continue();
    });
    await land(v.page, v.base + "/pt-br/");
    await v.page.getByRole("button", { name: "Falar com um especialista" }).click();
    const dialog = v.page.getByRole("dialog");
    await dialog.getByLabel("Nome").fill("João");
    await dialog.getByLabel("E-mail").fill("joao@example.com");
    await dialog.getByLabel("WhatsApp").fill("21 99999-0000");
    await dialog.getByRole("button", { name: "Continuar" }).click();
    const busy = dialog.getByRole("button", { name: "Enviando..." });
    await busy.waitFor();
    assert.equal(await busy.isDisabled(), true);
    release();
    await waitFor(() => Promise.resolve(v.external.length), (n) => n > 0);
    assert.match(v.external[0].url, /^https:\/\/wa\.me\/\d+\?text=/);
    assert.ok(!v.external[0].url.includes("utm_"), "the specialist link goes as is");
    const [lead] = await rows<{ plan: string; plan_label: string }>(
      server,
      "select plan, plan_label from leads",
    );
    assert.deepEqual(lead, { plan: "enterprise", plan_label: "Especialista" });
  } finally {
    await v.context.close();
    await server.close();
  }
});

browserTest(
  "lead modal: when saving fails the checkout still opens ~500 ms later and the lead arrives once, later",
  async () => {
    const server = await serveApp();
    const v = await visitor(server);
    try {
      await v.context.route(
        "**/api/leads",
        (route) =>
          route.fulfill({
            status: 503,
            contentType: "application/json",
            body: '{"error":"service_unavailable"}',
          }),
      );
      await land(v.page, v.base + LANDING);
      await planButton(v.page, "Micro").click();
      const dialog = v.page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("Carla");
      await dialog.getByLabel("E-mail").fill("carla@example.com");
      await dialog.getByLabel("WhatsApp").fill("11 91234-5678");
      const failed = v.page.waitForResponse((r) => r.url().endsWith("/api/leads"));
      await dialog.getByRole("button", { name: "Continuar" }).click();
      const answer = await failed;
      assert.equal(answer.status(), 503);
      const failedAt = await leadAnsweredAt(v);
      await waitFor(() => Promise.resolve(v.external.length), (n) => n > 0);
      const delay = Math.round(v.external[0].at - failedAt);
      console.log(`redirect after a failed save: ${delay} ms`);
      assert.ok(delay >= 400, `redirect came after ${delay} ms`);
      assert.match(v.external[0].url, /^https:\/\/app\.zapflow\.com\.br\/checkout\/micro\?utm_source=google/);
      assert.equal((await rows(server, "select id from leads")).length, 0);

      // Let the checkout navigation finish before leaving it, or the next goto races with it.
      await v.page.waitForURL(/^https:\/\/app\.zapflow\.com\.br\//);
      // The server is back: the next page load re-sends the waiting lead, once.
      await v.context.unroute("**/api/leads");
      await land(v.page, v.base + "/pt-br/");
      const leads = await waitFor(
        () => rows<{ email: string; utm_source: string }>(server, "select email, utm_source from leads"),
        (r) => r.length > 0,
      );
      assert.deepEqual(leads, [{ email: "carla@example.com", utm_source: "google" }]);
      await waitFor(
        () => v.page.evaluate(() => localStorage.getItem("zapflow.leadOutbox")),
        (x) => x === null,
      );
      await land(v.page, v.base + "/pt-br/clientes");
      await land(v.page, v.base + "/pt-br/");
      await outboxFlushed(v.page);
      assert.equal((await rows(server, "select id from leads")).length, 1, "stored exactly once");
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "lead modal: the privacy sentence links to the privacy policy in the page's language; a backdrop click " +
    "closes it like Escape and Cancel",
  async () => {
    const server = await serveApp();
    const v = await visitor(server, { width: 390, height: 844 });
    try {
      const cases = [
        {
          path: "/pt-br/",
          plan: "Assinar agora (Pro)",
          link: "política de privacidade",
          href: "/pt-br/politica-privacidade",
        },
        { path: "/en/", plan: "Subscribe now (Pro)", link: "privacy policy", href: "/en/privacy-policy" },
        {
          path: "/es/",
          plan: "Suscribirme ahora (Pro)",
          link: "política de privacidad",
          href: "/es/politica-de-privacidad",
        },
      ];
      for (const c of cases) {
        await land(v.page, v.base + c.path);
        const dialog = await planDialog(v, v.page.getByRole("button", { name: c.plan }));
        const link = dialog.getByRole("link", { name: new RegExp(`^${c.link}`) });
        assert.equal(await link.getAttribute("href"), c.href, c.path);
        assert.equal(await link.getAttribute("target"), "_blank", c.path);
        await screenshot(v.page, `lead-modal-privacy-${c.path.replaceAll("/", "")}-390.png`);
        // A press inside the form released outside (selecting text) does not close it.
        const box = (await dialog.boundingBox())!;
        await v.page.mouse.move(box.x + box.width / 2, box.y + 40);
        await v.page.mouse.down();
        await v.page.mouse.move(4, box.y + box.height / 2);
        await v.page.mouse.up();
        assert.equal(await dialog.isVisible(), true, `${c.path}: still open after a drag out`);
        // A click on the backdrop (outside the box) closes it and is logged.
        assert.ok(box.x > 8, "the backdrop shows beside the dialog");
        await v.page.mouse.click(4, box.y + box.height / 2);
        await dialog.waitFor({ state: "hidden" });
        const events = await v.page.evaluate(() =>
          (globalThis as unknown as { dataLayer: { event: string; event_label: string }[] }).dataLayer
            .map((e) => `${e.event}:${e.event_label}`)
        );
        assert.ok(events.includes("lead_modal_close:Pro"), `${c.path}: ${events.join(", ")}`);
      }
      assert.deepEqual(v.errors, []);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);

browserTest(
  "lead modal: outboxFlushed returns once a waiting lead is delivered and its conversion recorded (the waits " +
    "above would see a flush that sends)",
  async () => {
    const server = await serveApp();
    const v = await visitor(server);
    try {
      await land(v.page, v.base + LANDING);
      // A lead as the dialog keeps it, waiting in the outbox as if its first send had failed.
      await v.page.evaluate(() => {
        const createdAt = Date.now();
        const idempotencyKey = `lead_${createdAt}_barriertest1`;
        const origin = {
          sessionId: sessionStorage.getItem("zapflow.sessionId") ?? "s",
          utmSource: "google",
          utmCampaign: "black-friday",
          utmMedium: "cpc",
        };
        const body = {
          name: "Rita",
          email: "rita@example.com",
          whatsapp: "11 91234-0000",
          plan: "Pro",
          ...origin,
          page: location.href,
          idempotencyKey,
          submittedAt: createdAt,
        };
        const conversion = { source: "pricing_pro_plan", label: "Pro", origin, meta: null };
        localStorage.setItem(
          "zapflow.leadOutbox",
          JSON.stringify([{ idempotencyKey, createdAt, body, conversion }]),
        );
      });
      await land(v.page, v.base + "/pt-br/clientes");
      await outboxFlushed(v.page);
      // No polling: by now the flush has sent the lead and recorded its conversion.
      assert.equal((await rows(server, "select id from leads")).length, 1);
      assert.equal((await rows(server, "select id from conversions")).length, 1);
      assert.equal(await v.page.evaluate(() => localStorage.getItem("zapflow.leadOutbox")), null);
    } finally {
      await v.context.close();
      await server.close();
    }
  },
);
