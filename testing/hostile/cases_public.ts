// Hostile values in the public write endpoints (POST /api/leads, /api/tracking/*, /api/meta/event): markup,
// SQL and formulas are stored as literal text; NUL, lone surrogates and invalid UTF-8 are refused.
import assert from "node:assert/strict";
import { csvCell } from "../../src/services/leads_csv.ts";
import { pageKey } from "../../src/shared/page_key.ts";
import { csvText, type HostileCase, LEAD, leadById, send } from "./harness.ts";

const XSS = [
  "<script>alert(1)</script>",
  '"><svg onload=alert(1)>',
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "'';!--\"<XSS>=&{()}",
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  "{{constructor.constructor('alert(1)')()}}",
  '<a href="javascript:alert(1)">x</a>',
];
const SQL = [
  "Robert'); DROP TABLE leads;--",
  "' OR '1'='1",
  "1; SELECT pg_sleep(10); --",
  "admin'--",
  "x' UNION SELECT password_hash, null FROM admins --",
];
const FORMULAS = [
  '=HYPERLINK("https://evil.example","clique")',
  "+SUM(1,2)",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(A1:A2)",
  "=cmd|' /C notepad'!A1",
];

type LeadField = "name" | "email" | "whatsapp" | "plan" | "utmSource" | "utmCampaign" | "utmMedium" | "page";

/** A lead whose `field` carries `value`: stored exactly, listed exactly, exported as inert text. */
function storedLiterally(category: HostileCase["category"], field: LeadField, value: string): HostileCase {
  const sent = field === "email" ? `${value.replace(/\s/g, "/")}@x.example` : value;
  const body: Record<string, string> = { ...LEAD, [field]: sent };
  return {
    category,
    name: `lead ${field} ${JSON.stringify(value).slice(0, 40)} is stored as text`,
    writes: true,
    send: (ctx) => send.json(ctx, "/api/leads", body),
    status: 201,
    async check(res, text, ctx) {
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const { id } = JSON.parse(text);
      if (field === "page") {
        const rows = await ctx.t.db.query<{ page: string }>("select page from leads where id = $1", [id]);
        assert.equal(rows[0].page, sent, "stored exactly as sent");
      } else {
        const lead = await leadById(ctx, id);
        assert.equal(field === "plan" ? lead.planLabel : lead[field], sent, "listed exactly as sent");
        const csv = await csvText(ctx);
        assert.ok(csv.includes(csvCell(sent)), "exported as one neutralised cell");
        if (/^[=+\-@]/.test(sent)) assert.ok(csv.includes(`;"'${sent[0]}`), "its formula start neutralised");
      }
    },
  };
}

const leadFields: LeadField[] = [
  "name",
  "email",
  "whatsapp",
  "plan",
  "utmSource",
  "utmCampaign",
  "utmMedium",
  "page",
];

const invalidUtf8: [string, number[]][] = [
  ["a lone continuation byte", [0x80]],
  ["a truncated sequence", [0xe2, 0x82]],
  ["an overlong slash", [0xc0, 0xaf]],
  ["a surrogate encoded in UTF-8", [0xed, 0xa0, 0x80]],
  ["0xFF", [0xff]],
];

/** `{"name":"<bytes>", ...}` as raw bytes. */
function withBytes(bytes: number[], template = { ...LEAD, name: "@@" }): Uint8Array {
  const [head, tail] = JSON.stringify(template).split("@@");
  const enc = new TextEncoder();
  return new Uint8Array([...enc.encode(head), ...bytes, ...enc.encode(tail)]);
}

const meta = { eventName: "Lead", eventSourceUrl: "http://localhost:8000/pt-br/", eventId: "evt_1" };

export const PUBLIC_CASES: HostileCase[] = [
  // Markup in every lead field and in tracking values: stored and shown as text.
  ...leadFields.map((f, i) => storedLiterally("markup", f, XSS[i % XSS.length])),
  // Markdown for the sales board (escaped in the Trello card) and a second recipient or a mail parameter
  // (no Reply-To, no mailto link): stored as typed all the same.
  storedLiterally("markup", "name", "[Pague aqui](https://evil.example)"),
  storedLiterally("markup", "utmSource", "![](https://evil.example/pixel.png)"),
  storedLiterally("markup", "utmCampaign", "**urgente** <https://evil.example>"),
  storedLiterally("markup", "page", "/pt-br/[x](https://evil.example)"),
  storedLiterally("markup", "email", "victim@corp.example,attacker"),
  storedLiterally("markup", "email", "victim@corp.example?cc=attacker"),
  {
    category: "markup",
    name: "visit with markup in source and every UTM field is counted as text",
    writes: true,
    send: (ctx) =>
      send.json(ctx, "/api/tracking/visit", {
        source: `/pt-br/?q=${XSS[0]}`,
        utmSource: XSS[1],
        utmCampaign: XSS[2],
        utmMedium: XSS[3],
        utmTerm: XSS[4],
        utmContent: XSS[5],
      }),
    status: 202,
    async check(_res, _text, ctx) {
      const rows = await ctx.t.db.query<{ source: string; utm_source: string }>(
        "select source, utm_source from visits order by id desc limit 1",
      );
      // Stored as its page key (the trailing slash folded), the markup as typed.
      assert.deepEqual(rows[0], { source: pageKey(`/pt-br/?q=${XSS[0]}`), utm_source: XSS[1] });
      assert.ok(rows[0].source.endsWith(`?q=${XSS[0]}`));
    },
  },
  // SQL in text fields is data; the tables are all still there.
  ...SQL.slice(0, 3).map((v, i) =>
    storedLiterally("sql", (["name", "utmCampaign", "whatsapp"] as const)[i], v)
  ),
  {
    category: "sql",
    name: "tracking click with SQL in the source is stored as text",
    writes: true,
    send: (ctx) => send.json(ctx, "/api/tracking/click", { source: "'; DELETE FROM visits; --" }),
    status: 202,
    async check(_res, _text, ctx) {
      const [{ n }] = await ctx.t.db.query<{ n: number }>("select count(*)::int as n from visits");
      assert.ok(n >= 1, "visits survive");
    },
  },
  {
    category: "sql",
    name: "WhatsApp click with SQL in its kind is refused",
    send: (ctx) =>
      send.json(ctx, "/api/tracking/click", { source: "/pt-br", kind: "whatsapp'; DELETE FROM clicks; --" }),
    status: 400,
    fields: ["kind"],
  },
  {
    category: "sql",
    name: "meta event name with SQL is refused",
    send: (ctx) =>
      send.json(ctx, "/api/meta/event", { ...meta, eventName: "Lead'; DROP TABLE meta_outbox;--" }),
    status: 400,
    fields: ["eventName"],
  },
  // Formula cells: stored, exported with a leading apostrophe.
  ...FORMULAS.map((v, i) =>
    storedLiterally("csv", (["name", "utmSource", "whatsapp", "utmMedium", "plan"] as const)[i], v)
  ),
  // NUL, lone surrogates, invalid UTF-8; bidi overrides are stored (and rendered isolated).
  ...(["name", "email", "whatsapp", "utmSource", "page"] as const).map((field): HostileCase => ({
    category: "encoding",
    name: `NUL in lead ${field}`,
    send: (ctx) => send.json(ctx, "/api/leads", { ...LEAD, [field]: "a\u0000b@x.example" }),
    status: 400,
    fields: [field],
  })),
  {
    category: "encoding",
    name: "NUL in a JSON key",
    send: (ctx) =>
      send.json(ctx, "/api/leads", `{"na\\u0000me":"x","email":"a@b.co","whatsapp":"1","plan":"Pro"}`),
    status: 400,
    fields: ["body"],
  },
  {
    category: "encoding",
    name: "NUL in a tracking source",
    send: (ctx) => send.json(ctx, "/api/tracking/conversion", { source: "/pt-br\u0000" }),
    status: 400,
    fields: ["source"],
  },
  {
    category: "encoding",
    name: "NUL in a Meta custom value",
    send: (ctx) => send.json(ctx, "/api/meta/event", { ...meta, customData: { content_name: "x\u0000" } }),
    status: 400,
    fields: ["customData.content_name"],
  },
  ...([["name", "\\ud800"], ["utmCampaign", "x\\udfff"], ["plan", "\\udbff\\udbff"]] as const).map((
    [field, escaped],
  ): HostileCase => ({
    category: "encoding",
    name: `lone surrogate in lead ${field}`,
    send: (ctx) =>
      send.json(ctx, "/api/leads", JSON.stringify({ ...LEAD, [field]: "@@" }).replace("@@", escaped)),
    status: 400,
    fields: [field],
  })),
  {
    category: "encoding",
    name: "lone surrogate in a visit's utmTerm",
    send: (ctx) => send.json(ctx, "/api/tracking/visit", '{"source":"/pt-br","utmTerm":"\\ud83d"}'),
    status: 400,
    fields: ["utmTerm"],
  },
  ...invalidUtf8.map(([what, bytes]): HostileCase => ({
    category: "encoding",
    name: `lead body with ${what}`,
    send: (ctx) => send.bytes(ctx, "/api/leads", withBytes(bytes)),
    status: 400,
    fields: ["body"],
  })),
  {
    category: "encoding",
    name: "tracking body with invalid UTF-8",
    send: (ctx) => send.bytes(ctx, "/api/tracking/visit", withBytes([0xc3, 0x28], { source: "@@" } as never)),
    status: 400,
    fields: ["body"],
  },
  {
    category: "encoding",
    name: "UTF-16 body sent as JSON",
    send: (ctx) => {
      const text = JSON.stringify(LEAD);
      const bytes = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++) bytes[i * 2] = text.charCodeAt(i);
      return send.bytes(ctx, "/api/leads", bytes, "application/json; charset=utf-16le");
    },
    status: 400,
    fields: ["body"],
  },
  storedLiterally("encoding", "name", "\u202Egnp.exe \u2066x\u2069 \u200B\u200D"),
  storedLiterally("encoding", "utmSource", "\u202Ekoobecaf"),
  storedLiterally("encoding", "name", "Zoë 🙂 مرحبا 中文 e\u0301"),
];
