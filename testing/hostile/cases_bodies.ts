// Hostile bodies for the public write endpoints, by shape: nesting, wrong JSON types, prototype keys,
// oversize bodies (declared or streamed) and wrong content types. All refused; nothing stored.
import assert from "node:assert/strict";
import { type Ctx, type HostileCase, LEAD, send } from "./harness.ts";
import { insertLead } from "../../src/db/leads.ts";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const meta = { eventName: "Lead", eventSourceUrl: "http://localhost:8000/pt-br/", eventId: "evt_1" };

export const BODY_CASES: HostileCase[] = [
  // JSON shapes.
  ...([
    ["deeply nested arrays", nested(7000), ["body"]],
    ["deeply nested objects", '{"a":'.repeat(1500) + "1" + "}".repeat(1500), ["body", "name"]],
    ["null", "null", ["body"]],
    ["an array", "[]", ["body"]],
    ["a string", '"lead"', ["body"]],
    ["1e999", "1e999", ["body"]],
    ["an empty body", "", ["body"]],
    ["truncated JSON", '{"name":"Ana","email":', ["body"]],
    ["an unknown key", JSON.stringify({ ...LEAD, isAdmin: true }), ["body"]],
    ["a __proto__ key", `{"__proto__":{"isAdmin":true},${JSON.stringify(LEAD).slice(1)}`, ["body"]],
    ["a constructor.prototype key", JSON.stringify({ ...LEAD, constructor: { prototype: { x: 1 } } }), [
      "body",
    ]],
    ["a number for the name", JSON.stringify({ ...LEAD, name: 123 }), ["name"]],
    ["an object for the e-mail", JSON.stringify({ ...LEAD, email: { $ne: null } }), ["email"]],
    ["a 121-character name", JSON.stringify({ ...LEAD, name: "a".repeat(121) }), ["name"]],
  ] as const).map(([what, body, fields]): HostileCase => ({
    category: "json",
    name: `lead body: ${what}`,
    send: (ctx) => send.json(ctx, "/api/leads", body),
    status: 400,
    fields: [...fields],
  })),
  {
    category: "json",
    name: "prototype keys in Meta customData are dropped, nothing is polluted",
    writes: true,
    // The Lead of a stored lead (only those are accepted); its custom data is decided by the server.
    prepare: (ctx) =>
      insertLead(ctx.t.db, {
        idempotencyKey: null,
        name: "Proto",
        email: "proto@example.com",
        whatsapp: "11987654321",
        plan: "pro",
        planLabel: "Pro",
        utmSource: null,
        utmCampaign: null,
        utmMedium: null,
        page: null,
        submittedAt: new Date(),
        eventId: "evt_proto",
      }),
    send: (ctx) =>
      send.json(
        ctx,
        "/api/meta/event",
        `{"eventName":"Lead","eventSourceUrl":"http://localhost:8000/","eventId":"evt_proto",` +
          `"customData":{"__proto__":{"polluted":1},"content_name":"ok"}}`,
      ),
    status: 202,
    async check(_res, _text, ctx) {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const rows = await ctx.t.db.query<{ payload: unknown }>("select payload from meta_outbox");
      const custom = (rows.at(-1)!.payload as { custom_data: Record<string, unknown> }).custom_data;
      assert.equal(custom.content_name, "Pro");
      assert.ok(!Object.hasOwn(custom, "__proto__") && !("polluted" in custom));
    },
  },
  {
    category: "json",
    name: "Meta customData with a nested object",
    send: (ctx) =>
      send.json(ctx, "/api/meta/event", { ...meta, customData: { constructor: { prototype: {} } } }),
    status: 400,
    fields: ["customData.constructor"],
  },
  {
    category: "json",
    name: "Meta event source javascript: URL",
    send: (ctx) =>
      send.json(ctx, "/api/meta/event", { ...meta, eventSourceUrl: "javascript:alert(1)//http://x" }),
    status: 400,
    fields: ["eventSourceUrl"],
  },
  // Oversize bodies, declared or streamed.
  {
    category: "json",
    name: "1 MB lead body",
    send: (ctx) => send.json(ctx, "/api/leads", { ...LEAD, name: "a".repeat(1 << 20) }),
    status: 413,
  },
  {
    category: "json",
    name: "100 KB tracking body",
    send: (ctx) => send.json(ctx, "/api/tracking/visit", { source: "x".repeat(100_000) }),
    status: 413,
  },
  {
    category: "json",
    name: "streamed body larger than its Content-Length says",
    send: (ctx: Ctx) => {
      const chunk = new TextEncoder().encode(" ".repeat(4096));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 8) controller.enqueue(chunk);
          else controller.close();
        },
      });
      return ctx.t.request("/api/meta/event", {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "content-length": "10",
          origin: ctx.t.deps.config.PUBLIC_ORIGIN,
        },
      });
    },
    status: 413,
  },
  // Content types.
  ...([
    ["text/plain", "/api/leads"],
    ["application/x-www-form-urlencoded", "/api/leads"],
    ["multipart/form-data; boundary=x", "/api/leads"],
    ["", "/api/leads"],
    ["application/json-patch+json", "/api/leads"],
    ["application/xml", "/api/tracking/click"],
    ["text/html", "/api/meta/event"],
  ] as const).map(([type, path]): HostileCase => ({
    category: "content-type",
    name: `${path} as ${type || "no content type"}`,
    send: (ctx) =>
      ctx.t.request(path, {
        method: "POST",
        body: type === "" ? new Blob([JSON.stringify(LEAD)]) : JSON.stringify(LEAD),
        headers: { ...(type ? { "content-type": type } : {}), origin: ctx.t.deps.config.PUBLIC_ORIGIN },
      }),
    status: 415,
  })),
];
