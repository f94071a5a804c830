// How a lead card words each delivery: a delivery being retried is pending with its next try (time in the
// analytics time zone), never "Falhou"; "Falhou" only once delivery gave up or was refused.
import assert from "node:assert/strict";
import { deliveryLine } from "./LeadDeliveries.tsx";
import { setAnalyticsTimeZone } from "./format.ts";
import type { Delivery } from "./deliveries.ts";

const base: Delivery = {
  leadId: 1,
  destination: "trello",
  status: "pending",
  state: "queued",
  attempts: 0,
  nextAttempt: 1,
  deliveredAt: null,
  nextAttemptAt: "2026-11-26T13:00:00.000Z",
  lastError: null,
  lastFailureAt: null,
};
// 26/11/2026 12:00 in São Paulo (UTC-3).
const NOW = new Date("2026-11-26T15:00:00Z");

Deno.test("delivery line: a retry scheduled today reads as pending with its time and attempt number", () => {
  setAnalyticsTimeZone("America/Sao_Paulo");
  const line = deliveryLine({
    ...base,
    state: "retrying",
    attempts: 2,
    nextAttempt: 3,
    nextAttemptAt: "2026-11-26T17:05:00.000Z",
    lastError: "conexão recusada",
    lastFailureAt: "2026-11-26T14:59:00.000Z",
  }, NOW);
  assert.deepEqual(line, {
    tone: "pending",
    label: "Pendente",
    detail: "Tentando de novo às 14:05, tentativa 3 · último erro: conexão recusada",
    resend: true,
  });
});

Deno.test("delivery line: a retry due on another local day names the day", () => {
  setAnalyticsTimeZone("America/Sao_Paulo");
  // 03:05 UTC on the 27th is 00:05 on the 27th in São Paulo.
  const line = deliveryLine(
    { ...base, state: "retrying", attempts: 5, nextAttempt: 6, nextAttemptAt: "2026-11-27T03:05:00.000Z" },
    NOW,
  );
  assert.equal(line.detail, "Tentando de novo em 27/11 às 00:05, tentativa 6");
  assert.equal(line.label, "Pendente");
  // The same instant in another analytics zone reads in that zone.
  setAnalyticsTimeZone("UTC");
  assert.equal(
    deliveryLine(
      { ...base, state: "retrying", nextAttempt: 2, nextAttemptAt: "2026-11-26T17:05:00.000Z" },
      NOW,
    )
      .detail,
    "Tentando de novo às 17:05, tentativa 2",
  );
  setAnalyticsTimeZone("America/Sao_Paulo");
});

Deno.test("delivery line: Falhou only for a delivery that failed for good; queued and sending are pending", () => {
  setAnalyticsTimeZone("America/Sao_Paulo");
  const failed = deliveryLine({
    ...base,
    status: "failed",
    state: "failed",
    attempts: 1,
    nextAttempt: null,
    nextAttemptAt: null,
    lastError: "HTTP 400: invalid value for field",
  }, NOW);
  assert.deepEqual(failed, {
    tone: "failed",
    label: "Falhou",
    detail: "HTTP 400: invalid value for field",
    resend: true,
  });
  assert.deepEqual(deliveryLine(base, NOW), {
    tone: "pending",
    label: "Pendente",
    detail: null,
    resend: false,
  });
  assert.deepEqual(deliveryLine({ ...base, state: "sending", attempts: 1, nextAttempt: 2 }, NOW), {
    tone: "pending",
    label: "Pendente",
    detail: "Enviando, tentativa 2",
    resend: false,
  });
  const delivered = deliveryLine({
    ...base,
    status: "delivered",
    state: "delivered",
    attempts: 1,
    nextAttempt: null,
    nextAttemptAt: null,
    deliveredAt: "2026-11-26T12:26:00.000Z",
  }, NOW);
  assert.deepEqual(delivered, {
    tone: "delivered",
    label: "Entregue",
    detail: "26/11 às 09:26",
    resend: false,
  });
});
