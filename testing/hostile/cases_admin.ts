// Hostile requests to the administrator's data endpoints: dashboard query parameters, the leads search and
// the LGPD lookup, export and erasure.
import assert from "node:assert/strict";
import { type HostileCase, send } from "./harness.ts";

const RANGE = "startDate=2026-11-01&endDate=2026-11-30";

export const ADMIN_CASES: HostileCase[] = [
  // Dashboard query strings.
  ...([
    ["/api/leads/analytics?days=-1", ["days"]],
    ["/api/leads/analytics?days=1e309", ["days"]],
    ["/api/tracking/analytics?days=Infinity", ["days"]],
    ["/api/tracking/analytics?days=1;drop table leads", ["days"]],
    ["/api/leads?limit=-5", ["limit"]],
    ["/api/leads?limit=99999999999999999999", ["limit"]],
    ["/api/leads?limit=10&offset=-1", ["offset"]],
    ["/api/tracking/summary?startDate=2026-02-30&endDate=2026-03-01", ["startDate"]],
    ["/api/tracking/summary?startDate=2026-01-01' OR '1'='1&endDate=2026-01-02", ["startDate"]],
    ["/api/tracking/rankings/pages?startDate=99999-01-01&endDate=99999-01-02", ["startDate", "endDate"]],
    ["/api/tracking/unique-visits?startDate[]=2026-11-01&endDate=2026-11-02", ["startDate"]],
    ["/api/tracking/hourly?date=2026-11-31", ["date"]],
    ["/api/tracking/hourly?date=2026-11-01' OR '1'='1", ["date"]],
    ["/api/tracking/hourly", ["date"]],
    ["/api/tracking/whatsapp?startDate=2026-11-30&endDate=2026-11-01", ["endDate"]],
    [`/api/leads?q=${"x".repeat(101)}`, ["q"]],
    [`/api/leads?q=${"%25".repeat(5000)}`, ["q"]],
    ["/api/leads?q=%00", ["q"]],
    ["/api/leads/export.csv?q=a%00b", ["q"]],
    ["/api/admin/lgpd/leads?email=a%00@b.co", ["email"]],
    ["/api/admin/lgpd/export?phone=11999990000%00", ["phone"]],
    ["/api/admin/lgpd/leads?email=x&phone=1", ["phone"]],
    [`/api/tracking/rankings/sources?${RANGE}&search=a%00b`, ["search"]],
    [`/api/tracking/rankings/utm-source?${RANGE}&limit=99999999999999999999`, ["limit"]],
    [`/api/tracking/rankings/pages?${RANGE}&offset=1e309`, ["offset"]],
    [`/api/tracking/export/channels.csv?${RANGE}&layout=xlsx`, ["layout"]],
    ["/api/tracking/export/daily.csv?startDate=2026-11-01", ["endDate"]],
    [`/api/tracking/export/pages.csv?${RANGE}&by=host`, ["by"]],
  ] as const).map(([path, fields]): HostileCase => ({
    category: "query",
    name: `GET ${path.slice(0, 70)}`,
    send: (ctx) => send.admin(ctx, path),
    status: 400,
    fields: [...fields],
  })),
  // Search text is matched literally (% and _ are not wildcards): only leads that contain it come back.
  ...["' OR '1'='1", "%' OR 1=1 --", "%", "_", "\\", "<script>", "%ff%fe", "%ed%a0%80"].map((
    q,
  ): HostileCase => ({
    category: "sql",
    name: `search ${q} matches only leads containing it`,
    send: (ctx) =>
      send.admin(ctx, `/api/leads?limit=500&q=${/^%[0-9a-f]{2}/i.test(q) ? q : encodeURIComponent(q)}`),
    status: 200,
    async check(res, text, ctx) {
      const [{ n }] = await ctx.t.db.query<{ n: number }>("select count(*)::int as n from leads");
      const found = JSON.parse(text) as { name: string; email: string; whatsapp: string }[];
      assert.ok(found.length < n, `${found.length} of ${n} leads match`);
      assert.equal(res.headers.get("x-total-count"), String(found.length));
      for (const lead of found) {
        const hay = `${lead.name}\n${lead.email}\n${lead.whatsapp}`.toLowerCase();
        assert.ok(hay.includes(q.toLowerCase()), `${JSON.stringify(lead)} does not contain ${q}`);
      }
    },
  })),
  // The LGPD lookup takes what the lead form takes (quoted local part, a second @, accents), and refuses
  // what it refuses.
  ...['"maria@casa"@empresa.com.br', "a@b@c.example.com", "JOSÉ+x@Correo.com.ar  ", "o'brien@example.ie"].map(
    (
      email,
    ): HostileCase => ({
      category: "query",
      name: `LGPD lookup of ${email.trim()} (valid for the lead form)`,
      send: (ctx) => send.admin(ctx, `/api/admin/lgpd/leads?email=${encodeURIComponent(email)}`),
      status: 200,
      check: (_res, text) => assert.deepEqual(JSON.parse(text), { leads: [] }),
    }),
  ),
  ...["maria@empresa", "maria @empresa.com", "@empresa.com"].map((email): HostileCase => ({
    category: "query",
    name: `LGPD lookup of ${email} (refused by the lead form too)`,
    send: (ctx) => send.admin(ctx, `/api/admin/lgpd/leads?email=${encodeURIComponent(email)}`),
    status: 400,
    fields: ["email"],
  })),
  {
    category: "sql",
    name: "LGPD lookup with SQL in the e-mail finds nobody",
    send: (ctx) => send.admin(ctx, "/api/admin/lgpd/leads?email=x'OR'1'='1@b.co"),
    status: 200,
    check: (_res, text) => assert.deepEqual(JSON.parse(text), { leads: [] }),
  },
  {
    category: "sql",
    name: "LGPD lookup with SQL in the phone finds nobody",
    send: (ctx) => send.admin(ctx, "/api/admin/lgpd/leads?phone=11988887777'%20OR%20'1'='1"),
    status: 200,
    check: (_res, text) => assert.deepEqual(JSON.parse(text), { leads: [] }),
  },
  {
    category: "query",
    name: "dashboard summary at the end of the calendar",
    send: (ctx) => send.admin(ctx, "/api/tracking/summary?startDate=9999-12-30&endDate=9999-12-31"),
    status: 200,
  },
  {
    category: "query",
    name: "leads list with a range and every parameter twice",
    send: (ctx) => send.admin(ctx, `/api/leads?${RANGE}&${RANGE}&limit=1&limit=2`),
    status: 200,
  },
  // LGPD erasure bodies.
  ...([
    ["ids as SQL", { ids: ["1 OR 1=1"] }, ["ids.0"]],
    ["fractional id", { ids: [1.5] }, ["ids.0"]],
    ["negative id", { ids: [-1] }, ["ids.0"]],
    ["id beyond 2^53", { ids: [1e300] }, ["ids.0"]],
    ["501 ids", { ids: Array.from({ length: 501 }, (_, i) => i + 1) }, ["ids"]],
    ["no ids", { ids: [] }, ["ids"]],
    ["ids as an object", { ids: { $gt: 0 } }, ["ids"]],
    ["an extra key", { ids: [1], all: true }, ["body"]],
  ] as const).map(([what, body, fields]): HostileCase => ({
    category: "json",
    name: `LGPD erase with ${what}`,
    send: (ctx) => send.adminJson(ctx, "/api/admin/lgpd/leads", body, "DELETE"),
    status: 400,
    fields: [...fields],
  })),
  {
    category: "json",
    name: "LGPD erase of ids that do not exist changes nothing",
    send: (ctx) =>
      send.adminJson(ctx, "/api/admin/lgpd/leads", { ids: [2147483647, 9007199254740991] }, "DELETE"),
    status: 200,
    check: (_res, text) => assert.deepEqual(JSON.parse(text), { deleted: { leads: 0, metaEvents: 0 } }),
  },
];
