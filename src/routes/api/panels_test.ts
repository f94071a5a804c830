// Every ranking in full (a page of it, searchable, its total in X-Total-Count) and every panel's rows as CSV,
// in the leads CSV's layouts and with its protections.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { insertClick, insertLead, insertVisit, sp } from "../../../testing/analytics_fixture.ts";
import { runRollups } from "../../services/rollups.ts";
import { PANEL_EXPORTS } from "../../shared/admin_schemas.ts";

const NOV = "startDate=2026-11-01&endDate=2026-11-30";
const NOW = () => sp("2026-11-26T09:00:00");
const EVIL = '=HYPERLINK("http://evil.example")';

/** 14 UTM sources, src-01 with 1 visit up to src-14 with 14, and one with a formula; a lead and clicks. */
async function ready(t: TestApp): Promise<string> {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  for (let i = 1; i <= 14; i++) {
    const source = `src-${String(i).padStart(2, "0")}`;
    for (let n = 0; n < i; n++) {
      await insertVisit(
        t.db,
        sp(`2026-11-${String(10 + (n % 5)).padStart(2, "0")}T10:00:00`),
        `v${i}-${n}`,
        `/pt-br?p=${i}`,
        {
          utmSource: source,
          utmCampaign: `camp-${i}`,
        },
        { trafficSource: source, channel: "paid_search", entry: n === 0 },
      );
    }
  }
  await insertVisit(t.db, sp("2026-11-20T10:00:00"), "evil", "/pt-br", { utmSource: EVIL }, {
    trafficSource: EVIL,
    channel: "referral",
    entry: true,
  });
  await insertClick(t.db, sp("2026-11-20T10:01:00"), { utmSource: "src-14" }, "pricing_pro_plan", {
    channel: "paid_search",
  });
  await insertClick(t.db, sp("2026-11-20T10:02:00"), { utmSource: "src-14" }, "pricing_pro_plan", {
    channel: "paid_search",
  });
  await insertClick(t.db, sp("2026-11-20T10:03:00"), { utmSource: "src-14" }, "pricing_pro_plan", {
    channel: "paid_search",
  });
  await insertLead(t.db, sp("2026-11-20T10:04:00"), {
    name: "Ana",
    email: "ana@example.com",
    whatsapp: "11 98765-4321",
    utmSource: "src-14",
    lastChannel: "paid_search",
  });
  return cookie;
}

async function json(t: TestApp, cookie: string, path: string) {
  const res = await getAs(t, cookie, path);
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return { body: await res.json(), total: res.headers.get("x-total-count") };
}

const source = (i: number) => `src-${String(i).padStart(2, "0")}`;

appTest(
  "panels: a ranking pages through its whole list, same fields as its top 10, raw and rolled up",
  async (t) => {
    const cookie = await ready(t);
    const check = async (when: string) => {
      const top = await json(t, cookie, `/api/tracking/rankings/utm-source?${NOV}`);
      assert.equal(top.total, null, "the top 10 answers as before");
      assert.equal(top.body.length, 10);
      const first = await json(t, cookie, `/api/tracking/rankings/utm-source?${NOV}&limit=10`);
      assert.deepEqual(first.body, top.body, when);
      assert.equal(first.total, "15", when);
      const rest = await json(t, cookie, `/api/tracking/rankings/utm-source?${NOV}&limit=10&offset=10`);
      assert.deepEqual(rest.body, [
        { utmSource: source(4), visits: 4 },
        { utmSource: source(3), visits: 3 },
        { utmSource: source(2), visits: 2 },
        { utmSource: EVIL, visits: 1 },
        { utmSource: source(1), visits: 1 },
      ], when);
      // Past the last page: no items, the total still said.
      const past = await json(t, cookie, `/api/tracking/rankings/utm-source?${NOV}&limit=10&offset=40`);
      assert.deepEqual(past.body, []);
      assert.equal(past.total, "15");
    };
    await check("raw only");
    await runRollups(t.db, "America/Sao_Paulo", NOW());
    await check("rolled up");
  },
  { now: NOW },
);

appTest("panels: a ranking's search finds keys containing it in any case", async (t) => {
  const cookie = await ready(t);
  const found = await json(t, cookie, `/api/tracking/rankings/utm-campaign?${NOV}&search=CAMP-1`);
  assert.deepEqual(found.body.map((r: { utmCampaign: string }) => r.utmCampaign), [
    "camp-14",
    "camp-13",
    "camp-12",
    "camp-11",
    "camp-10",
    "camp-1",
  ]);
  assert.equal(found.total, "6");
  // Pages, by page key and by path; sources and entry pages with their previous period.
  const pages = await json(t, cookie, `/api/tracking/rankings/pages?${NOV}&search=p=13`);
  assert.deepEqual(pages.body, [{ page: "/pt-br?p=13", visits: 13 }]);
  const paths = await json(t, cookie, `/api/tracking/rankings/pages?${NOV}&by=path&limit=5`);
  assert.deepEqual(paths.body, [{ page: "/pt-br", visits: 106 }]);
  const sources = await json(t, cookie, `/api/tracking/rankings/sources?${NOV}&offset=13`);
  assert.deepEqual(sources.body, [
    { source: EVIL, visits: 1, previousVisits: 0 },
    { source: source(1), visits: 1, previousVisits: 0 },
  ]);
  assert.equal(sources.total, "15");
  const entries = await json(t, cookie, `/api/tracking/rankings/entry-pages?${NOV}&search=/PT`);
  assert.deepEqual(entries.body, [{ page: "/pt-br", visits: 15, previousVisits: 0 }]);
}, { now: NOW });

appTest("panels: a bad page or search is a 400 naming it; without a session, 401", async (t) => {
  const cookie = await ready(t);
  for (
    const [query, field] of [["limit=0", "limit"], ["limit=x", "limit"], ["offset=-1", "offset"], [
      `search=${"a".repeat(201)}`,
      "search",
    ]]
  ) {
    const res = await getAs(t, cookie, `/api/tracking/rankings/sources?${NOV}&${query}`);
    assert.equal(res.status, 400, query);
    const body = await res.json();
    assert.equal(body.error, "validation");
    assert.ok(field in body.fields, `${query}: ${JSON.stringify(body.fields)}`);
  }
  const noDates = await getAs(t, cookie, `/api/tracking/rankings/pages?limit=5`);
  assert.equal(noDates.status, 400);
  assert.equal((await t.request(`/api/tracking/rankings/pages?${NOV}&limit=5`)).status, 401);
  assert.equal((await t.request(`/api/tracking/export/channels.csv?${NOV}`)).status, 401);
  const bad = await getAs(
    t,
    cookie,
    `/api/tracking/export/channels.csv?startDate=2026-11-31&endDate=2026-11-01`,
  );
  assert.equal(bad.status, 400);
  assert.equal((await getAs(t, cookie, `/api/tracking/export/nothing.csv?${NOV}`)).status, 404);
}, { now: NOW });

appTest("panels: a ranking's CSV holds every row, BOM and semicolons, formulas neutralised", async (t) => {
  const cookie = await ready(t);
  const res = await getAs(t, cookie, `/api/tracking/export/utm-source.csv?${NOV}&utm_medium=ignored`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8; header=present");
  assert.equal(
    res.headers.get("content-disposition"),
    'attachment; filename="origens-utm_2026-11-01_2026-11-30.csv"',
  );
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
  assert.ok(text.startsWith("\uFEFF"), "BOM");
  const lines = text.slice(1).split("\r\n");
  assert.equal(lines.at(-1), "");
  assert.deepEqual(lines.slice(0, 3), [
    '"Posição";"Origem (utm_source)";"Visualizações de página"',
    '"1";"src-14";"14"',
    '"2";"src-13";"13"',
  ]);
  assert.equal(lines.length - 2, 15, "every source, not the top 10");
  assert.equal(lines[14], `"14";"'=HYPERLINK(""http://evil.example"")";"1"`);
}, { now: NOW });

appTest("panels: rfc4180 layout, rates with the layout's decimal mark, every panel exports", async (t) => {
  const cookie = await ready(t);
  const text = async (path: string) => {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 200, path);
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
  };
  const plain = await text(`/api/tracking/export/conversion-by-utm-source.csv?${NOV}&layout=rfc4180`);
  assert.equal(
    plain,
    '"Origem (utm_source)","Cliques nos planos","Leads","Taxa de conversão (%)"\r\n' +
      '"src-14","3","1","33.30"\r\n',
  );
  const br = await text(`/api/tracking/export/conversion-by-utm-source.csv?${NOV}`);
  assert.ok(br.endsWith('"src-14";"3";"1";"33,30"\r\n'), br);
  const channels = await text(`/api/tracking/export/channels.csv?${NOV}`);
  assert.ok(channels.includes('"Pesquisa paga";"105";"3";"1";"33,30";"0";"0"\r\n'), channels);
  const summary = await text(`/api/tracking/export/summary.csv?${NOV}`);
  assert.ok(summary.includes('"Visualizações de página";"106";"0"\r\n'), summary);
  assert.ok(summary.includes('"Taxa de conversão (%)";"33,30";"0,00"\r\n'), summary);
  const daily = await text(`/api/tracking/export/daily.csv?${NOV}`);
  assert.ok(
    daily.startsWith(
      '\uFEFF"Data";"Leads";"Cliques nos planos";"Visitantes únicos";"Taxa de conversão (%)"\r\n' +
        '"01/11/2026";"0";"0";"0";"0,00"\r\n',
    ),
    daily,
  );
  assert.ok(daily.includes('"20/11/2026";"1";"3";"1";"33,30"\r\n'), daily);
  assert.equal(daily.trim().split("\r\n").length, 1 + 26, "every day up to today");
  const paths = await text(`/api/tracking/export/pages.csv?${NOV}&by=path`);
  assert.ok(paths.endsWith('"1";"/pt-br";"106"\r\n'), paths);
  for (const panel of PANEL_EXPORTS) await text(`/api/tracking/export/${panel}.csv?${NOV}`);
}, { now: NOW });
