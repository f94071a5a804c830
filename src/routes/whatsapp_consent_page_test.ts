// Issue 31 on the public pages: the consent box is in the server's lead dialog only when WhatsApp messages are
// configured, in the page's language, unchecked; the privacy policy names Meta as processor in each language.
import assert from "node:assert/strict";
import { appTest } from "../../testing/app.ts";

const ENV = {
  WHATSAPP_TOKEN: "EAAtesttoken123456",
  WHATSAPP_PHONE_NUMBER_ID: "1234567890",
  WHATSAPP_TEMPLATE: "lead_boas_vindas",
  WHATSAPP_APP_SECRET: "app-secret-0123456789",
  WHATSAPP_VERIFY_TOKEN: "verify-token-0123456789",
};

const BOX = [
  ["/pt-br", "Quero receber o contato pelo WhatsApp"],
  ["/en", "I want to be contacted on WhatsApp"],
  ["/es", "Quiero recibir el contacto por WhatsApp"],
] as const;

appTest(
  "whatsapp consent box: rendered unchecked in each language when WhatsApp is configured",
  async (t) => {
    for (const [path, label] of BOX) {
      const html = await (await t.request(path)).text();
      const box = html.match(/<input id="lead-whatsapp-consent"[^>]*>/)?.[0];
      assert.ok(box, `${path} has the box`);
      assert.ok(!/checked/.test(box), "unchecked");
      assert.match(
        html,
        new RegExp(`<label class="lead-consent" for="lead-whatsapp-consent">.*?${label}</span></label>`),
      );
    }
  },
  { env: ENV },
);

appTest("whatsapp consent box: absent when WhatsApp is not configured", async (t) => {
  for (const [path] of BOX) {
    const html = await (await t.request(path)).text();
    assert.ok(!html.includes("lead-whatsapp-consent"), path);
    assert.ok(!html.includes('class="lead-consent"'), path);
  }
});

appTest(
  "privacy policy: names Meta's WhatsApp Business Cloud API as processor in pt, en and es",
  async (t) => {
    for (
      const [path, words] of [
        [
          "/pt-br/politica-privacidade",
          /WhatsApp Business Cloud API da Meta Platforms, Inc\..*atuam como operadoras/,
        ],
        ["/en/privacy-policy", /WhatsApp Business Cloud API of Meta Platforms, Inc\..*act as processors/],
        [
          "/es/politica-de-privacidad",
          /WhatsApp Business Cloud API de Meta Platforms, Inc\..*encargadas del tratamiento/,
        ],
      ] as const
    ) {
      const res = await t.request(path);
      assert.equal(res.status, 200);
      assert.match(await res.text(), words, path);
    }
  },
);
