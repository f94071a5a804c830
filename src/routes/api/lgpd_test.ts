import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { phoneForms } from "../../services/lgpd.ts";

const META_ENV = { META_PIXEL_ID: "123456789012345", META_ACCESS_TOKEN: "secret-token" };

const maria = {
  name: "Maria Souza",
  email: "Maria@Example.com.br",
  whatsapp: "+55 (11) 98765-4321",
  plan: "Pro",
};
const mariaAgain = {
  name: "Maria S.",
  email: "maria@example.com.br",
  whatsapp: "11 98765 4321",
  plan: "Micro",
};
const joao = { name: "João Lima", email: "joao@example.com", whatsapp: "(21) 99876-5432", plan: "Premium" };

/** Three leads (two of them Maria's, typed differently), each with a queued Meta Lead event. */
async function seedLeads(t: TestApp): Promise<void> {
  for (const [i, lead] of [maria, mariaAgain, joao].entries()) {
    const res = await t.postJson("/api/leads", {
      ...lead,
      eventId: `lead-event-${i}`,
      idempotencyKey: `k-${i}`,
    });
    assert.equal(res.status, 201, await res.clone().text());
    await res.body?.cancel();
  }
}

async function signedIn(t: TestApp): Promise<string> {
  await seedAdmin(t.db);
  return await signIn(t);
}

function erase(t: TestApp, cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return t.request("/api/admin/lgpd/leads", {
    method: "DELETE",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", origin: TEST_ORIGIN, cookie, ...headers },
  });
}

Deno.test("lgpd: a phone number is matched with and without the country code", () => {
  assert.deepEqual(phoneForms("(11) 98765-4321"), ["11987654321", "5511987654321"]);
  assert.deepEqual(phoneForms("+55 11 98765-4321"), ["5511987654321", "11987654321"]);
});

appTest("lgpd: finds a person's leads by e-mail (any case) or by phone (any format)", async (t) => {
  await seedLeads(t);
  const cookie = await signedIn(t);
  const byEmail = await getAs(
    t,
    cookie,
    "/api/admin/lgpd/leads?email=" + encodeURIComponent(" MARIA@example.COM.br"),
  );
  assert.equal(byEmail.status, 200);
  assert.match(byEmail.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(byEmail.headers.get("cache-control"), "no-store");
  const { leads } = await byEmail.json();
  assert.deepEqual(leads.map((l: { name: string }) => l.name), ["Maria Souza", "Maria S."]);
  assert.deepEqual(Object.keys(leads[0]).sort(), [
    "browser",
    "country",
    "device",
    "email",
    "id",
    "name",
    "os",
    "page",
    "plan",
    "planLabel",
    "region",
    "state",
    "submittedAt",
    "utmCampaign",
    "utmContent",
    "utmMedium",
    "utmSource",
    "utmTerm",
    "whatsapp",
    "whatsappContact",
  ]);
  for (const phone of ["11987654321", "+55 11 98765-4321", "(11) 98765-4321"]) {
    const res = await getAs(t, cookie, "/api/admin/lgpd/leads?phone=" + encodeURIComponent(phone));
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).leads.map((l: { name: string }) => l.name), [
      "Maria Souza",
      "Maria S.",
    ]);
  }
  const nobody = await getAs(t, cookie, "/api/admin/lgpd/leads?email=nobody@example.com");
  assert.deepEqual(await nobody.json(), { leads: [] });
}, { env: META_ENV });

appTest("lgpd: exports a person's leads as a JSON download", async (t) => {
  await seedLeads(t);
  const cookie = await signedIn(t);
  const res = await getAs(t, cookie, "/api/admin/lgpd/export?email=maria@example.com.br");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.match(
    res.headers.get("content-disposition") ?? "",
    /^attachment; filename="dados-pessoais-\d{4}-\d\d-\d\d\.json"$/,
  );
  const data = await res.json();
  assert.deepEqual(data.subject, { email: "maria@example.com.br" });
  assert.ok(!Number.isNaN(Date.parse(data.exportedAt)));
  assert.match(data.notice, /pseudônima/);
  assert.deepEqual(
    data.leads.map((l: Record<string, unknown>) => [l.name, l.email, l.whatsapp, l.plan]),
    [
      ["Maria Souza", "Maria@Example.com.br", "+55 (11) 98765-4321", "pro"],
      ["Maria S.", "maria@example.com.br", "11 98765 4321", "micro"],
    ],
  );
  // The export carries what is derived from the lead too: the state of its WhatsApp number's DDD.
  assert.deepEqual(data.leads.map((l: Record<string, unknown>) => l.state), ["SP", "SP"]);
}, { env: META_ENV });

appTest("lgpd: erasing deletes the leads and their Meta events for good, and nobody else's", async (t) => {
  await seedLeads(t);
  const cookie = await signedIn(t);
  assert.equal((await t.db.query("select 1 from meta_outbox")).length, 3);
  const found = await (await getAs(t, cookie, "/api/admin/lgpd/leads?phone=11987654321")).json();
  const ids = found.leads.map((l: { id: number }) => l.id);
  assert.equal(ids.length, 2);

  const res = await erase(t, cookie, { ids });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.deepEqual(await res.json(), { deleted: { leads: 2, metaEvents: 2 } });
  assert.deepEqual(
    (await t.db.query<{ name: string }>("select name from leads")).map((r) => r.name),
    ["João Lima"],
  );
  const left = await t.db.query<{ event_id: string }>("select event_id from meta_outbox");
  assert.deepEqual(left.map((r) => r.event_id), ["lead-event-2"]);
  const again = await getAs(t, cookie, "/api/admin/lgpd/leads?email=maria@example.com.br");
  assert.deepEqual(await again.json(), { leads: [] });
  // Erasing what is already gone is not an error.
  assert.deepEqual(await (await erase(t, cookie, { ids })).json(), { deleted: { leads: 0, metaEvents: 0 } });
}, { env: META_ENV });

appTest("lgpd: every tool needs the administrator's session", async (t) => {
  await seedLeads(t);
  for (
    const path of [
      "/api/admin/lgpd/leads?email=maria@example.com.br",
      "/api/admin/lgpd/export?phone=11987654321",
    ]
  ) {
    const res = await t.request(path);
    assert.equal(res.status, 401);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.deepEqual(await res.json(), { error: "unauthorized" });
  }
  const res = await erase(t, "admin_session=forged", { ids: [1] });
  assert.equal(res.status, 401);
  await res.body?.cancel();
  assert.equal((await t.db.query("select 1 from leads")).length, 3);
}, { env: META_ENV });

appTest("lgpd: erasing refuses other origins and non-JSON bodies", async (t) => {
  await seedLeads(t);
  const cookie = await signedIn(t);
  const cross = await erase(t, cookie, { ids: [1] }, { origin: "https://evil.example" });
  assert.equal(cross.status, 403);
  await cross.body?.cancel();
  const form = await erase(t, cookie, { ids: [1] }, { "content-type": "application/x-www-form-urlencoded" });
  assert.equal(form.status, 403);
  await form.body?.cancel();
  assert.equal((await t.db.query("select 1 from leads")).length, 3);
}, { env: META_ENV });

appTest("lgpd: bad input is a 400 naming the field", async (t) => {
  const cookie = await signedIn(t);
  const cases: [string, string][] = [
    ["/api/admin/lgpd/leads", "email"],
    ["/api/admin/lgpd/leads?email=not-an-email", "email"],
    ["/api/admin/lgpd/leads?phone=12-34", "phone"],
    ["/api/admin/lgpd/export?email=a@b.c&phone=11987654321", "phone"],
  ];
  for (const [path, field] of cases) {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 400, path);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = await res.json();
    assert.equal(body.error, "validation");
    assert.ok(field in body.fields, `${path}: ${JSON.stringify(body.fields)}`);
  }
  for (const [body, field] of [[{ ids: [] }, "ids"], [{ ids: ["1"] }, "ids.0"], [{}, "ids"]] as const) {
    const res = await erase(t, cookie, body);
    assert.equal(res.status, 400);
    const json = await res.json();
    assert.ok(field in json.fields, JSON.stringify(json.fields));
  }
});

// Odd addresses the lead form accepts (non-space text, @, text, a dot, text), each with how the person or the
// administrator may type it later. Every one must be found: the form and the lookup share one rule.
const ODD_ADDRESSES: Array<[stored: string, typedLater: string[]]> = [
  ["Maria.SOUZA@Empresa.COM.BR", ["maria.souza@empresa.com.br", "MARIA.SOUZA@EMPRESA.COM.BR"]],
  ["maria+leads@empresa.com.br", ["Maria+Leads@empresa.com.br"]],
  ["josé.ñandú@correo.com.ar", ["JOSÉ.ÑANDÚ@correo.com.ar", "jose\u0301.n\u0303andu\u0301@correo.com.ar"]],
  ["jose\u0301@nfd.example.com", ["josé@nfd.example.com"]],
  ["  espacos@empresa.com.br   ", ["espacos@empresa.com.br", "espacos@empresa.com.br \t"]],
  ['"maria@casa"@empresa.com.br', ['"MARIA@casa"@empresa.com.br']],
  ["a@b@c.example.com", ["A@B@C.example.com"]],
  ["o'brien@example.ie", ["O'Brien@example.ie"]],
  ["用户@例子.广告", ["用户@例子.广告"]],
  ["x_%_y@example.com", ["X_%_Y@example.com"]],
];

appTest("lgpd: every address the lead form accepts is found, however it is typed later", async (t) => {
  const cookie = await signedIn(t);
  for (const [i, [stored, later]] of ODD_ADDRESSES.entries()) {
    const res = await t.postJson("/api/leads", {
      name: `Odd ${i}`,
      email: stored,
      whatsapp: "11987654321",
      plan: "Pro",
    });
    assert.equal(res.status, 201, `${stored}: ${await res.clone().text()}`);
    await res.body?.cancel();
    for (const typed of [stored, ...later]) {
      const found = await getAs(t, cookie, `/api/admin/lgpd/leads?email=${encodeURIComponent(typed)}`);
      assert.equal(found.status, 200, `${typed}: ${await found.clone().text()}`);
      const { leads } = await found.json();
      assert.deepEqual(leads.map((l: { name: string }) => l.name), [`Odd ${i}`], `${typed} finds ${stored}`);
    }
  }
});

appTest("lgpd: what the lead form refuses, the lookup refuses too (one rule)", async (t) => {
  const cookie = await signedIn(t);
  for (
    const bad of ["maria", "maria@empresa", "maria @empresa.com", "@empresa.com", "maria@.", "a\u0000@b.co"]
  ) {
    const form = await t.postJson("/api/leads", {
      name: "X",
      email: bad,
      whatsapp: "11987654321",
      plan: "Pro",
    });
    assert.equal(form.status, 400, bad);
    assert.ok("email" in (await form.json()).fields, bad);
    const lookup = await getAs(t, cookie, `/api/admin/lgpd/leads?email=${encodeURIComponent(bad)}`);
    assert.equal(lookup.status, 400, bad);
    assert.ok("email" in (await lookup.json()).fields, bad);
  }
});
