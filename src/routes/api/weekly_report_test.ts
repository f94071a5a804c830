// The dashboard's "Relatório semanal por e-mail" switch: admin-only, on by default, stored, same-origin JSON.
import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN } from "../../../testing/app.ts";
import { ADMIN_EMAIL, getAs, seedAdmin, signIn } from "../../../testing/admin.ts";
import { weeklyReportStatus } from "../../shared/admin_schemas.ts";

const SMTP = {
  SMTP_URL: "smtp://127.0.0.1:2525",
  LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
  LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
  REPORT_TO: "socio@zapflow.com.br,marketing@zapflow.com.br",
};

appTest("weekly report switch: on by default, turned off and on, stored, admin-only", async (t) => {
  const put = (body: unknown, cookie?: string, headers: Record<string, string> = {}) =>
    t.request("/api/admin/weekly-report", {
      method: "PUT",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: {
        "content-type": "application/json",
        origin: TEST_ORIGIN,
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
    });
  assert.equal((await t.request("/api/admin/weekly-report")).status, 401);
  assert.equal((await put({ enabled: false })).status, 401);
  await seedAdmin(t.db);
  const cookie = await signIn(t);

  const res = await getAs(t, cookie, "/api/admin/weekly-report");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const first = weeklyReportStatus.parse(await res.json());
  assert.deepEqual(first, {
    enabled: true,
    available: true,
    recipients: [ADMIN_EMAIL, "socio@zapflow.com.br", "marketing@zapflow.com.br"],
    timeZone: "America/Sao_Paulo",
    last: null,
  });

  const off = await put({ enabled: false }, cookie);
  assert.equal(off.status, 200);
  assert.equal(weeklyReportStatus.parse(await off.json()).enabled, false);
  assert.equal(
    weeklyReportStatus.parse(await (await getAs(t, cookie, "/api/admin/weekly-report")).json()).enabled,
    false,
  );
  const on = await put({ enabled: true }, cookie);
  assert.equal(weeklyReportStatus.parse(await on.json()).enabled, true);

  // Bad input: 400 naming the field; another origin or content type: 403.
  const bad = await put({ enabled: "sim" }, cookie);
  assert.equal(bad.status, 400);
  assert.ok((await bad.json()).fields.enabled);
  assert.equal((await put({ enabled: false, extra: 1 }, cookie)).status, 400);
  assert.equal((await put("{", cookie)).status, 400);
  assert.equal((await put({ enabled: false }, cookie, { origin: "https://evil.example" })).status, 403);
  assert.equal((await put({ enabled: false }, cookie, { "content-type": "text/plain" })).status, 403);
  assert.equal(
    weeklyReportStatus.parse(await (await getAs(t, cookie, "/api/admin/weekly-report")).json()).enabled,
    true,
  );
}, { env: SMTP });

appTest("weekly report switch: without SMTP the dashboard is told nothing can be sent", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const body = weeklyReportStatus.parse(await (await getAs(t, cookie, "/api/admin/weekly-report")).json());
  assert.equal(body.available, false);
  assert.equal(body.enabled, true);
});
