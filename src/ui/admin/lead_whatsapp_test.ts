// The lead card's WhatsApp line in every state, and the first-contact panel's durations.
import assert from "node:assert/strict";
import { waMeOf, whatsappStatusLine } from "./LeadWhatsapp.tsx";
import { formatDuration } from "./FirstContactPanel.tsx";
import type { LeadWhatsapp } from "../../shared/admin_schemas.ts";

const LEAD_AT = "2026-11-26T17:01:30.000Z"; // 14:01 in São Paulo
const none: LeadWhatsapp = {
  consentAt: null,
  consentVersion: null,
  e164: null,
  status: null,
  error: null,
  acceptedAt: null,
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  failedAt: null,
  repliedAt: null,
};
const agreed = { ...none, consentAt: LEAD_AT, consentVersion: "2026-11-v1:pt", e164: "+5511987654321" };

Deno.test("whatsapp line: only the steps that happened, in ANALYTICS_TZ", () => {
  const accepted = { ...agreed, status: "delivered" as const, acceptedAt: "2026-11-26T17:02:01.000Z" };
  assert.deepEqual(whatsappStatusLine(accepted, LEAD_AT), { text: "WhatsApp: enviado 14:02", tone: "ok" });
  const all = {
    ...accepted,
    sentAt: "2026-11-26T17:02:03.000Z",
    deliveredAt: "2026-11-26T17:02:05.000Z",
    readAt: "2026-11-26T17:05:00.000Z",
    repliedAt: "2026-11-26T17:09:00.000Z",
  };
  assert.equal(
    whatsappStatusLine(all, LEAD_AT).text,
    "WhatsApp: enviado 14:02 · entregue 14:02 · lido 14:05 · respondeu 14:09",
  );
  // A step on another day says its day.
  assert.equal(
    whatsappStatusLine({ ...all, repliedAt: "2026-11-27T12:00:00.000Z" }, LEAD_AT).text,
    "WhatsApp: enviado 14:02 · entregue 14:02 · lido 14:05 · respondeu 27/11 09:00",
  );
});

Deno.test("whatsapp line: why no message went", () => {
  assert.deepEqual(whatsappStatusLine(none, LEAD_AT), { text: "WhatsApp: sem consentimento", tone: "wait" });
  assert.equal(
    whatsappStatusLine({ ...agreed, status: "pending" }, LEAD_AT).text,
    "WhatsApp: aguardando envio",
  );
  assert.deepEqual(
    whatsappStatusLine(
      { ...agreed, e164: null, status: "failed", error: "número inválido para WhatsApp" },
      LEAD_AT,
    ),
    { text: "WhatsApp: número inválido para WhatsApp", tone: "bad" },
  );
  assert.equal(
    whatsappStatusLine(
      { ...agreed, status: "failed", error: "WhatsApp 131026: o número não está no WhatsApp" },
      LEAD_AT,
    ).text,
    "WhatsApp: WhatsApp 131026: o número não está no WhatsApp",
  );
  // Accepted by Meta, then the webhook said it failed.
  assert.deepEqual(
    whatsappStatusLine({
      ...agreed,
      status: "delivered",
      acceptedAt: "2026-11-26T17:02:01.000Z",
      failedAt: "2026-11-26T17:02:09.000Z",
      error: "131049 Message not delivered",
    }, LEAD_AT),
    { text: "WhatsApp: enviado 14:02 · falhou 14:02 (131049 Message not delivered)", tone: "bad" },
  );
});

Deno.test("whatsapp chat link: wa.me with the normalised number's digits", () => {
  assert.equal(waMeOf("+5511987654321"), "https://wa.me/5511987654321");
});

Deno.test("first contact: durations as people say them", () => {
  assert.equal(formatDuration(null), "—");
  assert.equal(formatDuration(0), "0 s");
  assert.equal(formatDuration(42.4), "42 s");
  assert.equal(formatDuration(185), "3 min 05 s");
  assert.equal(formatDuration(4320), "1 h 12 min");
  assert.equal(formatDuration(2 * 86_400 + 3 * 3600 + 5), "2 d 3 h");
});
