// Hostile requests to the lead-delivery endpoints of the dashboard (issue 17): the deliveries lookup and
// "Reenviar".
import { type HostileCase, send } from "./harness.ts";

export const DELIVERY_CASES: HostileCase[] = [
  ...([
    "/api/admin/deliveries",
    "/api/admin/deliveries?leads=",
    "/api/admin/deliveries?leads=1;drop table leads",
    "/api/admin/deliveries?leads=1,,2",
    "/api/admin/deliveries?leads=-1",
    "/api/admin/deliveries?leads=1e3",
    "/api/admin/deliveries?leads=9999999999999999999",
    "/api/admin/deliveries?leads[]=1",
    `/api/admin/deliveries?leads=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`,
    "/api/admin/deliveries?leads=1%00",
  ].map((path): HostileCase => ({
    category: "query",
    name: `GET ${path.slice(0, 70)}`,
    send: (ctx) => send.admin(ctx, path),
    status: 400,
    fields: ["leads"],
  }))),
  ...([
    ["a lead id beyond 2^53", { leadId: 1e300, destination: "webhook" }, ["leadId"]],
    ["a fractional lead id", { leadId: 1.5, destination: "webhook" }, ["leadId"]],
    ["a lead id as text", { leadId: "1 or 1=1", destination: "webhook" }, ["leadId"]],
    ["an unknown destination", { leadId: 1, destination: "https://evil.example/hook" }, ["destination"]],
    ["no destination", { leadId: 1 }, ["destination"]],
    ["an extra key", { leadId: 1, destination: "webhook", url: "https://evil.example" }, ["body"]],
  ] as const).map(([what, body, fields]): HostileCase => ({
    category: "json",
    name: `Reenviar with ${what}`,
    send: (ctx) => send.adminJson(ctx, "/api/admin/deliveries/resend", body),
    status: 400,
    fields: [...fields],
  })),
  {
    category: "json",
    name: "Reenviar of a lead that does not exist changes nothing",
    send: (ctx) =>
      send.adminJson(ctx, "/api/admin/deliveries/resend", { leadId: 9007199254740991, destination: "email" }),
    status: 409,
  },
];
