// Several instances behind a load balancer share one PostgreSQL: two real server processes, started at
// the same moment against a fresh schema, must migrate once, share sessions and share rate-limit counts.
import assert from "node:assert/strict";
import { withProcessSchema } from "../testing/db.ts";
import { startServer } from "../testing/server.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;
const ORIGIN = "http://localhost:8000"; // PUBLIC_ORIGIN of both instances, as behind one public name
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
const ADMIN = { email: "owner@example.com", password: "correct horse battery" };

if (!TEST_DATABASE_URL) {
  console.warn(
    `\n${"!".repeat(78)}\n!! SKIPPING the two-instance test: TEST_DATABASE_URL is not set.\n${
      "!".repeat(78)
    }\n`,
  );
}

function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(base + path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", origin: ORIGIN, "user-agent": BROWSER_UA, ...headers },
  });
}

/** Fixed one-minute rate-limit windows: start a burst early in a window so it is counted in one. */
async function waitForFreshMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 30_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
}

Deno.test({
  name: "instances: two processes on one PostgreSQL migrate once, share sessions and rate limits",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await withProcessSchema("multi", async ({ schema, url, admin }) => {
      const env = {
        DATABASE_URL: url,
        PUBLIC_ORIGIN: ORIGIN,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: "info",
      };
      const servers = await Promise.allSettled([startServer({ env }), startServer({ env })]);
      try {
        const [a, b] = servers.map((s) => {
          if (s.status === "rejected") throw s.reason;
          return s.value;
        });
        const migrated = await admin.query<{ name: string; n: number }>(
          `select name, count(*)::int as n from ${schema}.schema_migrations group by name order by name`,
        );
        const shipped = [...Deno.readDirSync(new URL("../migrations/", import.meta.url))]
          .map((e) => e.name).filter((n) => n.endsWith(".sql")).sort();
        assert.deepEqual(migrated, shipped.map((name) => ({ name, n: 1 })));
        const outputs = [a.output(), b.output()];
        // Exactly one process applied the migrations (the other waited on the lock, then found nothing to do).
        assert.equal(
          outputs.filter((o) => o.includes('"msg":"migrations applied"')).length,
          1,
          outputs.join("\n"),
        );
        assert.equal(outputs.filter((o) => o.includes('"msg":"administrator created')).length, 1);
        for (const s of [a, b]) {
          const ready = await fetch(`${s.url}/readyz`);
          assert.equal(ready.status, 200);
          assert.equal((await ready.json()).status, "ready");
        }

        // A session made on A is honoured on B, and a logout on B ends it on A.
        const login = await post(a.url, "/api/admin/login", ADMIN);
        assert.equal(login.status, 200, await login.clone().text());
        await login.body?.cancel();
        const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
        assert.match(cookie, /^admin_session=\w+/);
        const onB = await fetch(`${b.url}/api/admin/check-auth`, { headers: { cookie } });
        assert.equal(onB.status, 200);
        assert.match(onB.headers.get("content-type") ?? "", /application\/json/);
        assert.deepEqual(await onB.json(), { isAuthenticated: true, email: ADMIN.email });
        const logout = await post(b.url, "/api/admin/logout", {}, { cookie });
        assert.ok(logout.status < 300, String(logout.status));
        await logout.body?.cancel();
        const afterLogout = await fetch(`${a.url}/api/admin/check-auth`, { headers: { cookie } });
        assert.deepEqual(await afterLogout.json(), { isAuthenticated: false, email: null });

        // The tracking limit (120 a minute per visitor) counts requests to both instances together.
        await waitForFreshMinute();
        const statuses: number[] = [];
        for (let i = 0; i < 121; i++) {
          const res = await post(i % 2 ? b.url : a.url, "/api/tracking/visit", { source: "/pt-br" });
          statuses.push(res.status);
          await res.body?.cancel();
        }
        assert.equal(statuses.filter((s) => s === 202).length, 120, statuses.join(","));
        assert.equal(statuses[120], 429);
        const visits = await admin.query<{ n: number }>(`select count(*)::int as n from ${schema}.visits`);
        assert.equal(visits[0].n, 120);
      } finally {
        for (const s of servers) if (s.status === "fulfilled") assert.equal(await s.value.stop(), 0);
      }
    });
  },
});
