// The lead dialog's WhatsApp consent box (issue 31): shown only when WhatsApp messages are configured,
// unchecked, a 44 px target with its own label in the page's language; a ticked box is stored with the lead
// (time and text version), an unticked one queues no message. UPDATE_SCREENSHOTS=1 refreshes
// docs/screenshots/issue-31/consent-{pt,en,es}-390.png.
import assert from "node:assert/strict";
import { browserTest, screenshot, serveApp, type Served, UPDATE_SCREENSHOTS } from "./browser.ts";
import { land, visitor, waitFor } from "./visitor.ts";

const WHATSAPP_ENV = {
  WHATSAPP_TOKEN: "EAAtesttoken123456",
  WHATSAPP_PHONE_NUMBER_ID: "1234567890",
  WHATSAPP_TEMPLATE: "lead_boas_vindas",
  WHATSAPP_APP_SECRET: "app-secret-0123456789",
  WHATSAPP_VERIFY_TOKEN: "verify-token-0123456789",
  // Nobody listens there: the message stays queued, which these tests do not look at.
  WHATSAPP_API_URL: "http://127.0.0.1:9/v23.0",
};

const CASES = [
  {
    lang: "pt",
    path: "/pt-br/#precos",
    label: "Quero receber o contato pelo WhatsApp",
    phone: "(11) 98765-4321",
  },
  { lang: "en", path: "/en/#precos", label: "I want to be contacted on WhatsApp", phone: "(415) 555-2671" },
  {
    lang: "es",
    path: "/es/#precos",
    label: "Quiero recibir el contacto por WhatsApp",
    phone: "+34 612 34 56 78",
  },
] as const;

interface StoredConsent {
  whatsapp_consent_at: Date | null;
  whatsapp_consent_version: string | null;
  whatsapp_e164: string | null;
}

async function stored(server: Served): Promise<StoredConsent[]> {
  return await server.db.query<StoredConsent>(
    "select whatsapp_consent_at, whatsapp_consent_version, whatsapp_e164 from leads order by id",
  );
}

for (const c of CASES) {
  browserTest(
    `whatsapp consent (${c.lang}): unchecked box with its label, 44 px, stored when ticked`,
    async () => {
      const server = await serveApp(WHATSAPP_ENV);
      const v = await visitor(server, { width: 390, height: 844 });
      try {
        await land(v.page, v.base + c.path);
        await v.page.locator("a[data-lead]").first().click();
        const dialog = v.page.locator("#lead-dialog");
        await dialog.waitFor();
        const box = dialog.getByLabel(c.label);
        assert.equal(await box.count(), 1, "one box, named by its label");
        assert.equal(await box.getAttribute("type"), "checkbox");
        assert.equal(await box.isChecked(), false, "unchecked until the visitor ticks it");
        const target = await dialog.locator("label.lead-consent").boundingBox();
        assert.ok(target && target.height >= 44, `the box's line is ${target?.height} px tall`);
        await dialog.locator("#lead-name").fill("Maria Souza");
        await dialog.locator("#lead-email").fill(`maria.${c.lang}@example.com`);
        await dialog.locator("#lead-whatsapp").fill(c.phone);
        // The label's text ticks it (the whole line is the target).
        await dialog.getByText(c.label).click();
        assert.equal(await box.isChecked(), true);
        if (UPDATE_SCREENSHOTS) {
          await dialog.locator("label.lead-consent").scrollIntoViewIfNeeded();
          await screenshot(v.page, `issue-31/consent-${c.lang}-390.png`);
        }
        const saved = v.page.waitForResponse((r) => r.url().endsWith("/api/leads"));
        await dialog.locator("button[type=submit]").click();
        assert.equal((await saved).status(), 201);
        const [lead] = await waitFor(() => stored(server), (r) => r.length === 1);
        assert.ok(lead.whatsapp_consent_at instanceof Date, "the consent's time is stored");
        assert.ok(Math.abs(lead.whatsapp_consent_at.getTime() - Date.now()) < 60_000);
        assert.equal(lead.whatsapp_consent_version, `2026-11-v1:${c.lang}`);
        assert.match(lead.whatsapp_e164 ?? "", /^\+\d{10,15}$/);
        const queued = await server.db.query("select 1 from lead_deliveries where destination = 'whatsapp'");
        assert.equal(queued.length, 1, "one message queued for the lead who agreed");
        assert.deepEqual(v.errors, []);
      } finally {
        await v.context.close();
        await server.close();
      }
    },
  );
}

browserTest("whatsapp consent: an unticked box sends no consent and queues no message", async () => {
  const server = await serveApp(WHATSAPP_ENV);
  const v = await visitor(server);
  try {
    await land(v.page, v.base + "/pt-br/#precos");
    await v.page.locator("a[data-lead]").first().click();
    const dialog = v.page.locator("#lead-dialog");
    await dialog.waitFor();
    await dialog.locator("#lead-name").fill("João Lima");
    await dialog.locator("#lead-email").fill("joao@example.com");
    await dialog.locator("#lead-whatsapp").fill("(21) 99876-5432");
    const request = v.page.waitForRequest((r) => r.url().endsWith("/api/leads"));
    await dialog.locator("button[type=submit]").click();
    assert.equal((await request).postDataJSON().whatsappConsent, false);
    const [lead] = await waitFor(() => stored(server), (r) => r.length === 1);
    assert.equal(lead.whatsapp_consent_at, null);
    assert.equal(lead.whatsapp_consent_version, null);
    assert.equal(
      (await server.db.query("select 1 from lead_deliveries where destination = 'whatsapp'")).length,
      0,
    );
  } finally {
    await v.context.close();
    await server.close();
  }
});

browserTest("whatsapp consent: without WhatsApp configured there is no box and nothing is sent", async () => {
  const server = await serveApp();
  const v = await visitor(server);
  try {
    await land(v.page, v.base + "/pt-br/#precos");
    assert.equal(await v.page.locator("#lead-whatsapp-consent").count(), 0);
    await v.page.locator("a[data-lead]").first().click();
    const dialog = v.page.locator("#lead-dialog");
    await dialog.waitFor();
    assert.equal(await dialog.getByText("Quero receber o contato pelo WhatsApp").count(), 0);
    await dialog.locator("#lead-name").fill("Ana");
    await dialog.locator("#lead-email").fill("ana@example.com");
    await dialog.locator("#lead-whatsapp").fill("(11) 98765-4321");
    const request = v.page.waitForRequest((r) => r.url().endsWith("/api/leads"));
    await dialog.locator("button[type=submit]").click();
    assert.equal("whatsappConsent" in (await request).postDataJSON(), false);
  } finally {
    await v.context.close();
    await server.close();
  }
});
