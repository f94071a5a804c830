// What the sales team's tools receive from a hostile lead: the Trello card's Markdown and the e-mail's links,
// and how a webhook URL is taken apart for redaction. No database: the builders are pure.
import assert from "node:assert/strict";
import { marked } from "marked";
import { testConfig } from "../../testing/app.ts";
import type { ClaimedDelivery, DeliveryLead } from "../db/lead_deliveries.ts";
import { escapeMarkdown, receiverText, redact, trelloCard, urlSecrets } from "./lead_destinations.ts";
import { leadMessage } from "./lead_email.ts";

const config = testConfig({
  TRELLO_KEY: "trello-key-0123",
  TRELLO_TOKEN: "trello-token-4567",
  TRELLO_LIST_ID: "5f1e0c0ffee0c0ffee0c0ffe",
});

function delivery(lead: Partial<DeliveryLead>): ClaimedDelivery {
  return {
    id: 1,
    eventId: "2f8d0688-1759-4f49-b03d-5de86e9c3c4a",
    attempts: 0,
    retrySince: new Date("2026-11-20T15:00:00Z"),
    lead: {
      id: 7,
      name: "Maria Souza",
      email: "maria@empresa.com.br",
      whatsapp: "(11) 98765-4321",
      plan: "Pro",
      planLabel: "Pro",
      utmSource: null,
      utmCampaign: null,
      utmMedium: null,
      page: "/pt-br/",
      submittedAt: new Date("2026-11-20T15:00:00Z"),
      ...lead,
    },
  };
}

// What a lead may type into each field that reaches the card's description (the form only checks the e-mail's
// shape: non-space text, @, text, a dot, text).
const HOSTILE = [
  "[Pague aqui](https://evil.example)",
  "![](https://evil.example/pixel.png)",
  "<a href=https://evil.example>Pague</a>",
  "<img src=x onerror=alert(1)>",
  "**urgente** _agora_ `code` ~~não~~",
  "# Título",
  "[ref]: https://evil.example",
  "[Pague][ref]",
  "<https://evil.example>",
  "\\[escaped\\](https://evil.example)",
  "| a | b |",
  "https://evil.example/pague",
  "www.evil.example",
  "- item",
  "> citação",
];

Deno.test("trello: every lead field in the card's description stays literal text (no link, image or markup)", () => {
  for (const value of HOSTILE) {
    const card = trelloCard(
      config,
      delivery({
        email: `${value.replace(/\s/g, "")}@x.example`,
        whatsapp: value,
        plan: value,
        planLabel: value,
        utmSource: value,
        utmCampaign: value,
        utmMedium: value,
        page: value,
      }),
    );
    const html = marked.parse(card.desc as string, { async: false });
    assert.deepEqual(html.match(/<a\b[^>]*>/g), ['<a href="http://localhost:8000/pt-br/admin">'], value);
    assert.doesNotMatch(html, /<(img|em|code|del|h\d|table|script|ul|ol|blockquote)\b/, value);
    assert.deepEqual(
      [...html.matchAll(/<strong>([^<]*)<\/strong>/g)].map((m) => m[1]),
      ["E-mail:", "WhatsApp:", "Plano:", "Origem:", "Página:", "Recebido em:"],
      value,
    );
    // Rendered, the description shows what the lead typed.
    const text = html.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
    assert.ok(text.includes(`WhatsApp: ${value}`), `${value} shown as typed:\n${text}`);
  }
});

Deno.test("trello: the card's own Markdown (bold labels) survives, ordinary text reads as typed", () => {
  const desc = trelloCard(config, delivery({ utmSource: "google", utmCampaign: "black-friday" }))
    .desc as string;
  assert.match(desc, /^\*\*E-mail:\*\* maria@empresa\\\.com\\\.br$/m);
  assert.match(desc, /^\*\*Origem:\*\* google \/ black\\-friday$/m);
  const html = marked.parse(desc, { async: false });
  assert.match(html, /<strong>E-mail:<\/strong> maria@empresa\.com\.br/);
  assert.match(html, /<strong>WhatsApp:<\/strong> \(11\) 98765-4321/);
  assert.match(
    html,
    /<a href="http:\/\/localhost:8000\/pt-br\/admin">/,
    "our own dashboard link still is one",
  );
  assert.equal(escapeMarkdown("linha 1\nlinha 2"), "linha 1 linha 2", "no line break starts a block");
});

Deno.test("e-mail: no mailto link for anything but one plain address", () => {
  for (
    const bad of [
      "victim@corp.example,attacker@evil.example",
      "victim@corp.example;attacker@evil.example",
      "victim@corp.example?cc=attacker@evil.example",
      "victim@corp.example&bcc=attacker@evil.example",
      '"victim@corp.example"@evil.example',
      "<victim@corp.example>attacker@evil.example",
      "josé@empresa.com.br",
    ]
  ) {
    const message = leadMessage(config, delivery({ email: bad }));
    assert.ok(!message.html.includes("mailto:"), bad);
    assert.ok(message.text.includes(`E-mail: ${bad}`), `${bad} is still shown, as text`);
  }
  const ok = leadMessage(config, delivery({ email: " Maria.Souza+lead@empresa.com.br " }));
  assert.ok(ok.html.includes('href="mailto:Maria.Souza+lead@empresa.com.br"'));
});

Deno.test("webhook URL: every piece that may carry a token is redacted, short ones only where they stand alone", () => {
  const secrets = urlSecrets(
    "https://hooks.example.net/catch/123456/abcdef/?token=t0k3n-value&x=%C3%A9t%C3%A9",
  );
  for (
    const piece of [
      "https://hooks.example.net/catch/123456/abcdef/?token=t0k3n-value&x=%C3%A9t%C3%A9",
      "hooks.example.net",
      "/catch/123456/abcdef/",
      "/catch/123456/abcdef/?token=t0k3n-value&x=%C3%A9t%C3%A9",
      "123456",
      "abcdef",
      "t0k3n-value",
      "%C3%A9t%C3%A9",
      "été",
    ]
  ) {
    assert.ok(secrets.includes(piece), piece);
  }
  assert.equal(
    redact("hook abcdef (abcdefgh) 1234567 at /catch/123456/abcdef/: see webhooks", secrets),
    "hook *** (abcdefgh) 1234567 at ***: see webhooks",
  );
  // A token at the 300-character cut leaves no prefix behind.
  const cut = receiverText(`${"x".repeat(290)} Cannot POST /catch/123456/abcdef/?token=t0k3n-value`, secrets);
  assert.ok(cut.length <= 300);
  assert.doesNotMatch(cut, /\/catch|t0k3n/);
});
