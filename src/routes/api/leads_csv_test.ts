// The lead export's bytes. By default the layout a spreadsheet in Brazilian Portuguese opens as columns
// (Excel, LibreOffice): UTF-8 BOM, `;`, decimal comma, CRLF; `?layout=rfc4180` the plain comma layout. Both
// quote every cell and neutralise formula starts, phone numbers aside.
import assert from "node:assert/strict";
import { appTest } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { insertLead, sp } from "../../../testing/analytics_fixture.ts";
import { csvRow } from "../../services/leads_csv.ts";

const TITLES = [
  "Data",
  "Nome",
  "E-mail",
  "WhatsApp",
  "Plano",
  "Valor mensal do plano (R$)",
  "Origem (utm_source)",
  "Campanha (utm_campaign)",
  "Mídia (utm_medium)",
  ...["Primeiro toque", "Último toque"].flatMap((t) =>
    ["origem", "mídia", "campanha", "canal", "página de entrada"].map((c) => `${t}: ${c}`)
  ),
  // Added at the end (issue 29): the session's creative and keyword.
  "Criativo (utm_content)",
  "Palavra-chave (utm_term)",
  // Added at the end (issue 30): the state of the WhatsApp number's DDD.
  "Estado (DDD do WhatsApp)",
];
// The two touches' columns and the creative and keyword, all empty for these leads.
const NO_TOUCHES = Array(12).fill('""');

/** Three leads with everything a spreadsheet could trip on. */
async function seed(t: Parameters<Parameters<typeof appTest>[1]>[0]) {
  await insertLead(t.db, sp("2026-11-20T10:00:00"), {
    name: 'Silva; "Zé"\nJr',
    email: "ze@example.com",
    whatsapp: "+55 11 91234-5678",
    utmSource: "google",
    utmCampaign: "black-friday",
    utmMedium: "cpc",
  });
  await insertLead(t.db, sp("2026-11-20T09:00:00"), {
    name: '=HYPERLINK("http://evil.example")',
    email: "-2+3@example.com",
    whatsapp: "+1-1",
    plan: "premium",
    planLabel: "Premium",
  });
  await insertLead(t.db, sp("2026-11-20T08:00:00"), {
    name: "Ana",
    email: "ana@example.com",
    whatsapp: "11 3333-4444",
    plan: "enterprise",
    planLabel: "Especialista",
  });
}

const DAY = "startDate=2026-11-20&endDate=2026-11-20";

appTest("leads CSV: by default BOM, semicolons, decimal comma, CRLF; every protection kept", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  await seed(t);
  const res = await getAs(t, cookie, `/api/leads/export.csv?${DAY}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8; header=present");
  assert.equal(
    res.headers.get("content-disposition"),
    'attachment; filename="leads_2026-11-20_2026-11-20.csv"',
  );
  const expected = "\uFEFF" + [
    TITLES.map((title) => `"${title}"`).join(";"),
    [
      '"20/11/2026 10:00"',
      '"Silva; ""Zé""\nJr"',
      '"ze@example.com"',
      '"+55 11 91234-5678"',
      '"pro"',
      '"297,00"',
      '"google"',
      '"black-friday"',
      '"cpc"',
      ...NO_TOUCHES,
      '"SP"',
    ].join(";"),
    [
      '"20/11/2026 09:00"',
      `"'=HYPERLINK(""http://evil.example"")"`,
      `"'-2+3@example.com"`,
      `"'+1-1"`,
      '"Premium"',
      '"497,00"',
      '""',
      '""',
      '""',
      ...NO_TOUCHES,
      '""',
    ].join(";"),
    [
      '"20/11/2026 08:00"',
      '"Ana"',
      '"ana@example.com"',
      '"11 3333-4444"',
      '"Especialista"',
      '""',
      '""',
      '""',
      '""',
      ...NO_TOUCHES,
      '"SP"',
    ].join(";"),
  ].join("\r\n") + "\r\n";
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 4)], [0xef, 0xbb, 0xbf, 0x22], "BOM, then the first quoted cell");
  assert.deepEqual(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), expected);
  assert.deepEqual(bytes, new TextEncoder().encode(expected));
});

appTest("leads CSV: ?layout=rfc4180 is the plain layout (no BOM, commas, decimal point)", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  await seed(t);
  const res = await getAs(t, cookie, `/api/leads/export.csv?${DAY}&layout=rfc4180&plan=pro`);
  assert.equal(res.status, 200);
  const expected = [
    TITLES.map((title) => `"${title}"`).join(","),
    [
      '"20/11/2026 10:00"',
      '"Silva; ""Zé""\nJr"',
      '"ze@example.com"',
      '"+55 11 91234-5678"',
      '"pro"',
      '"297.00"',
      '"google"',
      '"black-friday"',
      '"cpc"',
      ...NO_TOUCHES,
      '"SP"',
    ].join(","),
  ].join("\r\n") + "\r\n";
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), new TextEncoder().encode(expected));
});

appTest("leads CSV: an unknown layout is a 400 naming it", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const res = await getAs(t, cookie, `/api/leads/export.csv?${DAY}&layout=xlsx`);
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error, "validation");
  assert.deepEqual(Object.keys(body.fields), ["layout"]);
});

Deno.test("leads CSV: a row's numbers take the layout's decimal mark; text is quoted and neutralised", () => {
  const cells = [1297.5, 0.125, -3, "=1+1", "a;b,c", null];
  assert.equal(csvRow(cells, "excel-br"), `"1297,50";"0,13";"-3,00";"'=1+1";"a;b,c";""\r\n`);
  assert.equal(csvRow(cells, "rfc4180"), `"1297.50","0.13","-3.00","'=1+1","a;b,c",""\r\n`);
});
