import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN, type TestApp } from "../../testing/app.ts";
import { SITE } from "../site.ts";

const PRO = SITE.plans.find((p) => p.key === "pro")!.checkoutUrl;

function clicks(t: TestApp) {
  return t.db.query<
    { source: string; utm_source: string | null; utm_campaign: string | null; utm_medium: string | null }
  >(
    "select source, utm_source, utm_campaign, utm_medium from clicks order by id",
  );
}

appTest(
  "go/checkout: a plan link reaches its checkout with the whole origin and counts the click",
  async (t) => {
    const res = await t.request(
      "/go/checkout?plan=pro&utm_source=facebook&utm_medium=paid&utm_campaign=bf&utm_content=video1&utm_term=crm" +
        "&fbclid=IwAR0abc&gclid=Cj0KCQ&other=ignored",
    );
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const location = new URL(res.headers.get("location")!);
    assert.equal(location.origin + location.pathname, PRO);
    assert.deepEqual(Object.fromEntries(location.searchParams), {
      utm_source: "facebook",
      utm_campaign: "bf",
      utm_medium: "paid",
      utm_content: "video1",
      utm_term: "crm",
      gclid: "Cj0KCQ",
      fbclid: "IwAR0abc",
    });
    assert.deepEqual(await clicks(t), [
      { source: "pricing_pro_plan", utm_source: "facebook", utm_campaign: "bf", utm_medium: "paid" },
    ]);
  },
);

appTest(
  "go/checkout: without origin in the link, the tapped page's address (Referer) gives it",
  async (t) => {
    const res = await t.request("/go/checkout?plan=micro", {
      headers: {
        referer: `${TEST_ORIGIN}/pt-br?utm_source=google&utm_campaign=launch&utm_medium=cpc&gclid=G1`,
      },
    });
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get("location")!);
    assert.equal(location.searchParams.get("utm_source"), "google");
    assert.equal(location.searchParams.get("gclid"), "G1");
    // Another site's address is not our visitor's landing page.
    const foreign = await t.request("/go/checkout?plan=micro", {
      headers: { referer: "https://evil.example/?utm_source=spoof" },
    });
    assert.equal(new URL(foreign.headers.get("location")!).search, "");
    assert.deepEqual((await clicks(t)).map((c) => c.utm_source), ["google", null]);
  },
);

appTest("go/checkout: a bad or missing plan is a 400 naming the field, and nothing is counted", async (t) => {
  for (const query of ["", "?plan=", "?plan=enterprise", "?plan=https://evil.example", "?plan[]=pro"]) {
    const res = await t.request(`/go/checkout${query}`);
    assert.equal(res.status, 400, query);
    const body = await res.json();
    assert.equal(body.error, "validation", query);
    assert.ok(body.fields.plan, `${query}: ${JSON.stringify(body)}`);
  }
  const long = await t.request(`/go/checkout?plan=pro&utm_source=${"x".repeat(501)}`);
  assert.equal(long.status, 400);
  assert.ok((await long.json()).fields.utm_source);
  assert.deepEqual(await clicks(t), []);
});

appTest(
  "go/checkout: no open redirect, only the configured checkout host is ever the destination",
  async (t) => {
    const tries = [
      "?plan=pro&next=https://evil.example",
      "?plan=pro&url=//evil.example",
      "?plan=pro&utm_source=" + encodeURIComponent("x@evil.example/#"),
      "?plan=pro&utm_source=" + encodeURIComponent("\\\\evil.example"),
      "?plan=pro&plan=https://evil.example",
    ];
    const host = new URL(PRO).host;
    for (const q of tries) {
      const res = await t.request(`/go/checkout${q}`);
      if (res.status === 400) continue;
      assert.equal(res.status, 302, q);
      const location = new URL(res.headers.get("location")!);
      assert.equal(location.host, host, q);
      assert.equal(location.pathname, new URL(PRO).pathname, q);
    }
  },
);

appTest(
  "go/checkout: a bot, a prefetch and a HEAD reach the checkout without counting a click",
  async (t) => {
    const bot = await t.request("/go/checkout?plan=pro", { headers: { "user-agent": "Googlebot/2.1" } });
    assert.equal(bot.status, 302);
    const prefetch = await t.request("/go/checkout?plan=pro", { headers: { "sec-purpose": "prefetch" } });
    assert.equal(prefetch.status, 302);
    const head = await t.request("/go/checkout?plan=pro", { method: "HEAD" });
    assert.equal(head.status, 302);
    assert.deepEqual(await clicks(t), []);
  },
);
