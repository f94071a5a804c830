// The dashboard's filters (shared/filters.ts, db/filtered.ts) on every report, with figures worked out by hand
// from the sessions below, on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import assert from "node:assert/strict";
import { appTest, type TestApp } from "../../../testing/app.ts";
import { getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { seedSessions } from "../../../testing/filter_fixture.ts";
import { runRollups } from "../../services/rollups.ts";
import { todayIn } from "../../shared/dashboard_math.ts";

const NOV = "startDate=2026-11-01&endDate=2026-11-30";
const NOW = new Date("2026-12-10T15:00:00Z");

async function ready(t: TestApp) {
  await seedAdmin(t.db);
  await seedSessions(t.db);
  return await signIn(t);
}

async function json(t: TestApp, cookie: string, path: string) {
  const res = await getAs(t, cookie, path);
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json();
}

const figures = (p: Record<string, unknown>) => ({
  visits: p.visits,
  uniqueVisitors: p.uniqueVisitors,
  clicks: p.clicks,
  leads: p.leads,
  conversions: p.conversions,
});

const options = { now: () => NOW };

appTest(
  "filters: every headline figure and its comparison follow one filter, and two combine (AND)",
  async (t) => {
    const cookie = await ready(t);
    const cases: [string, object, object][] = [
      // [filters, November, October (the comparison: a whole month that is over)]
      ["", { visits: 6, uniqueVisitors: 3, clicks: 3, leads: 2, conversions: 2 }, {
        visits: 1,
        uniqueVisitors: 1,
        clicks: 1,
        leads: 0,
        conversions: 0,
      }],
      ["f_channel=paid_social", { visits: 3, uniqueVisitors: 2, clicks: 2, leads: 1, conversions: 1 }, {
        visits: 1,
        uniqueVisitors: 1,
        clicks: 1,
        leads: 0,
        conversions: 0,
      }],
      ["f_utm_source=facebook&f_utm_content=video-1", {
        visits: 2,
        uniqueVisitors: 1,
        clicks: 1,
        leads: 1,
        conversions: 1,
      }, { visits: 1, uniqueVisitors: 1, clicks: 1, leads: 0, conversions: 0 }],
      // Entry page selects sessions: all of s1's and s2's page views.
      ["f_entry_page=%2Fpt-br", { visits: 3, uniqueVisitors: 2, clicks: 2, leads: 1, conversions: 1 }, {
        visits: 1,
        uniqueVisitors: 1,
        clicks: 1,
        leads: 0,
        conversions: 0,
      }],
      // Page selects page views of that page; clicks and leads of the sessions that viewed it.
      ["f_page=%2Fpt-br%2Fclientes", { visits: 2, uniqueVisitors: 1, clicks: 1, leads: 1, conversions: 1 }, {
        visits: 0,
        uniqueVisitors: 0,
        clicks: 0,
        leads: 0,
        conversions: 0,
      }],
      ["f_utm_term=whatsapp+api", { visits: 2, uniqueVisitors: 1, clicks: 1, leads: 1, conversions: 1 }, {
        visits: 0,
        uniqueVisitors: 0,
        clicks: 0,
        leads: 0,
        conversions: 0,
      }],
      ["f_source=direto", { visits: 1, uniqueVisitors: 1, clicks: 0, leads: 0, conversions: 0 }, {
        visits: 0,
        uniqueVisitors: 0,
        clicks: 0,
        leads: 0,
        conversions: 0,
      }],
      ["f_channel=paid_search&f_utm_source=facebook", {
        visits: 0,
        uniqueVisitors: 0,
        clicks: 0,
        leads: 0,
        conversions: 0,
      }, { visits: 0, uniqueVisitors: 0, clicks: 0, leads: 0, conversions: 0 }],
    ];
    // Before and after the roll-up: a filtered figure reads the raw rows, an unfiltered one the roll-ups.
    for (const rolled of [false, true]) {
      if (rolled) await runRollups(t.db, "America/Sao_Paulo", NOW);
      for (const [f, current, previous] of cases) {
        const s = await json(t, cookie, `/api/tracking/summary?${NOV}&${f}`);
        assert.deepEqual(figures(s.current), current, `${f} (rolled up: ${rolled})`);
        assert.deepEqual(figures(s.previous), previous, `${f} previous (rolled up: ${rolled})`);
        assert.equal(s.previous.start, "2026-10-01");
        const stats = await json(t, cookie, `/api/tracking/stats?${NOV}&${f}`);
        const c = current as { clicks: number; conversions: number };
        assert.deepEqual([stats.clicks, stats.conversions], [c.clicks, c.conversions], f);
      }
    }
  },
  options,
);

appTest(
  "filters: the daily series, rankings, channels and conversion table follow the filters",
  async (t) => {
    const cookie = await ready(t);
    const social = `${NOV}&f_channel=paid_social`;
    assert.deepEqual(await json(t, cookie, `/api/leads/analytics?${social}`), [{
      date: "2026-11-05",
      count: 1,
    }]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/analytics?${social}`), [
      { date: "2026-11-05", count: 1 },
      { date: "2026-11-06", count: 1 },
    ]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/unique-visits?${NOV}&f_page=%2Fpt-br%2Fclientes`), [
      { date: "2026-11-05", count: 1 },
      { date: "2026-11-20", count: 1 },
    ]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/utm-source?${social}`), [
      { utmSource: "facebook", visits: 3 },
    ]);
    assert.deepEqual(
      await json(t, cookie, `/api/tracking/rankings/utm-campaign?${NOV}&f_utm_source=Google`),
      [
        { utmCampaign: "bf", visits: 2 },
      ],
    );
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/pages?${social}`), [
      { page: "/pt-br", visits: 2 },
      { page: "/pt-br/clientes", visits: 1 },
    ]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/sources?${NOV}&f_utm_content=video-1`), [
      { source: "facebook", visits: 2, previousVisits: 1 },
    ]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/entry-pages?${NOV}&f_page=%2Fpt-br`), [
      { page: "/pt-br", visits: 2, previousVisits: 1 },
    ]);
    const channels = await json(t, cookie, `/api/tracking/channels?${NOV}&f_utm_source=facebook`);
    assert.deepEqual(
      channels.current.map((
        r: Record<string, number>,
      ) => [r.channel, r.visits, r.clicks, r.leads, r.leadRate]),
      [["paid_social", 3, 2, 1, 50]],
    );
    assert.deepEqual(
      channels.previous.map((r: Record<string, number>) => [r.channel, r.visits, r.clicks, r.leads]),
      [["paid_social", 1, 1, 0]],
    );
    assert.deepEqual(await json(t, cookie, `/api/tracking/conversion-by-utm-source?${social}`), [
      { utmSource: "facebook", clicks: 2, conversions: 1, rate: 50 },
    ]);
  },
  options,
);

appTest(
  "filters: creatives (utm_content) and keywords (utm_term) rank with clicks, leads and rate",
  async (t) => {
    const cookie = await ready(t);
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/utm-content?${NOV}`), [
      { value: "video-1", visits: 2, clicks: 1, leads: 1, rate: 100 },
      { value: "carrossel-2", visits: 1, clicks: 1, leads: 0, rate: 0 },
    ]);
    assert.deepEqual(await json(t, cookie, `/api/tracking/rankings/utm-term?${NOV}`), [
      { value: "whatsapp api", visits: 2, clicks: 1, leads: 1, rate: 100 },
    ]);
    assert.deepEqual(
      await json(t, cookie, `/api/tracking/rankings/utm-content?${NOV}&f_channel=paid_search`),
      [],
    );
  },
  options,
);

appTest(
  "filters: the lead list and its CSV follow the filters; the source box finds a substring",
  async (t) => {
    const cookie = await ready(t);
    const names = async (q: string) =>
      (await json(t, cookie, `/api/leads?${NOV}&${q}`)).map((l: { name: string }) => l.name);
    assert.deepEqual(await names("f_utm_content=video-1"), ["Ana Meta"]);
    assert.deepEqual(await names("f_channel=paid_search"), ["Caio Google"]);
    assert.deepEqual(await names("f_entry_page=%2Fpt-br%2Fpipefy-whatsapp-integracao"), ["Caio Google"]);
    assert.deepEqual(await names("f_channel=direct"), []);
    // Without a period: every lead kept, filtered the same way (a column filter and a session one).
    const all = async (q: string) =>
      (await json(t, cookie, `/api/leads?${q}`)).map((l: { name: string }) => l.name);
    assert.deepEqual(await all("f_channel=paid_search"), ["Caio Google"]);
    assert.deepEqual(await all("f_utm_content=video-1"), ["Ana Meta"]);
    assert.deepEqual(await all("f_channel=paid_search&f_utm_content=video-1"), []);
    // Case-insensitive substring: "goog" finds "Google"; LIKE's wildcards are plain characters.
    assert.deepEqual(await names("utmSource=goog"), ["Caio Google"]);
    assert.deepEqual(await names("utmSource=FACE"), ["Ana Meta"]);
    assert.deepEqual(await names("utmSource=%25"), []);
    assert.deepEqual(await names("utmSource=_"), []);
    const res = await getAs(t, cookie, `/api/leads/export.csv?${NOV}&f_utm_term=whatsapp+api&layout=rfc4180`);
    assert.equal(res.status, 200);
    const csv = await res.text();
    assert.match(csv, /Caio Google/);
    assert.doesNotMatch(csv, /Ana Meta/);
  },
  options,
);

appTest("filters: a bad filter is a 400 naming its parameter", async (t) => {
  const cookie = await ready(t);
  for (
    const [path, field] of [
      [`/api/tracking/summary?${NOV}&f_channel=tv`, "f_channel"],
      [`/api/tracking/rankings/pages?${NOV}&f_page=pt-br`, "f_page"],
      [`/api/leads?${NOV}&f_entry_page=x`, "f_entry_page"],
      [`/api/tracking/channels?${NOV}&f_utm_source=${"x".repeat(2001)}`, "f_utm_source"],
      [`/api/tracking/stats?f_utm_campaign=`, "f_utm_campaign"],
    ]
  ) {
    const res = await getAs(t, cookie, path);
    assert.equal(res.status, 400, path);
    const body = await res.json();
    assert.equal(body.error, "validation");
    assert.ok(field in body.fields, `${path}: ${JSON.stringify(body.fields)}`);
  }
}, options);

appTest(
  "filters: a stored lead keeps its session's creative and keyword, on the list and at the CSV's end",
  async (t) => {
    const cookie = await ready(t);
    const visit = await t.postJson("/api/tracking/visit", {
      source: "/pt-br?utm_source=facebook&utm_content=video-9&utm_term=bot",
      sessionId: "sess-9",
      utmSource: "facebook",
      utmContent: "video-9",
      utmTerm: "bot",
    });
    assert.equal(visit.status, 202);
    const lead = await t.postJson("/api/leads", {
      name: "Nina Criativo",
      email: "nina@example.com",
      whatsapp: "11 98888-0000",
      plan: "Pro",
      utmSource: "facebook",
      sessionId: "sess-9",
    });
    assert.equal(lead.status, 201);
    const today = todayIn("America/Sao_Paulo");
    const range = `startDate=${today}&endDate=${today}`;
    const list = await json(t, cookie, `/api/leads?${range}`);
    const nina = list.find((l: { name: string }) => l.name === "Nina Criativo");
    assert.deepEqual([nina.utmContent, nina.utmTerm], ["video-9", "bot"]);
    for (const layout of ["excel-br", "rfc4180"]) {
      const csv = await (await getAs(t, cookie, `/api/leads/export.csv?${range}&layout=${layout}`)).text();
      const [head, row] = csv.replace(/^\uFEFF/, "").split("\r\n");
      const sep = layout === "rfc4180" ? "," : ";";
      // Issue 30 appended the state of the WhatsApp number's DDD after them.
      assert.ok(
        head.endsWith(
          `"Criativo (utm_content)"${sep}"Palavra-chave (utm_term)"${sep}"Estado (DDD do WhatsApp)"`,
        ),
        head,
      );
      assert.match(row, new RegExp(`"video-9"${sep}"bot"${sep}"[A-Z]{0,2}"$`));
    }
  },
  { now: () => new Date() },
);
