// A new lead's committed deliveries wake the delivery job (services/schedule.ts listens): told once per new
// lead, never for a re-send of the same one (its idempotency key) nor for a bot's answer.
import assert from "node:assert/strict";
import { appTest } from "../../testing/app.ts";
import { deliveriesQueued } from "./lead_delivery.ts";

appTest("delivery wake: one 'queued' per new lead, none for a re-send", async (t) => {
  let told = 0;
  const count = () => told++;
  deliveriesQueued.addEventListener("queued", count);
  try {
    const lead = {
      name: "Maria",
      email: "maria@example.com",
      whatsapp: "(11) 98765-4321",
      plan: "Pro",
      idempotencyKey: "lead_1732000000000_abcdefabcdef",
    };
    for (let i = 0; i < 2; i++) {
      const res = await t.postJson("/api/leads", lead);
      assert.equal(res.status, 201);
      await res.body?.cancel();
    }
    assert.equal(told, 1);
    const other = await t.postJson("/api/leads", {
      ...lead,
      idempotencyKey: undefined,
      email: "b@example.com",
    });
    await other.body?.cancel();
    assert.equal(told, 2);
  } finally {
    deliveriesQueued.removeEventListener("queued", count);
  }
});
