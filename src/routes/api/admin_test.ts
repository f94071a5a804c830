import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN } from "../../../testing/app.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  getAs,
  seedAdmin,
  sessionCookieOf,
  signIn,
} from "../../../testing/admin.ts";
import { sessionIdOf } from "../../services/sessions.ts";
import { bootstrapAdmin, resetPassword, UnacceptablePassword } from "../../services/auth.ts";
import { findAdminByEmail } from "../../db/admins.ts";
import { ERROR_TEXTS } from "../../shared/admin_messages.ts";

const DAY = 86_400_000;
let clock = new Date("2026-11-10T12:00:00Z");
const options = { now: () => clock };

async function checkAuth(t: Parameters<Parameters<typeof appTest>[1]>[0], cookie?: string) {
  const res = await t.request("/api/admin/check-auth", { headers: cookie ? { cookie } : {} });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  return await res.json() as { isAuthenticated: boolean; email: string | null };
}

appTest("admin: login sets a session cookie and check-auth reports the e-mail", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  assert.deepEqual(await checkAuth(t), { isAuthenticated: false, email: null });
  const res = await t.postJson("/api/admin/login", { email: "Admin@Example.com", password: ADMIN_PASSWORD });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  // The outcome (success, message) and the session it opened.
  assert.deepEqual(await res.json(), {
    success: true,
    message: "Login realizado com sucesso.",
    isAuthenticated: true,
    email: ADMIN_EMAIL,
  });
  const line = res.headers.getSetCookie().find((c) => c.startsWith("admin_session="))!;
  assert.match(line, /HttpOnly/);
  assert.match(line, /SameSite=Lax/);
  assert.match(line, /Path=\//);
  assert.doesNotMatch(line, /Secure/);
  const token = line.split(";")[0].split("=")[1];
  assert.match(token, /^[a-z2-7]{32}$/);
  // Only the SHA-256 of the token is stored.
  const rows = await t.db.query<{ id: string }>("select id from sessions");
  assert.deepEqual(rows.map((r) => r.id), [sessionIdOf(token)]);
  assert.notEqual(rows[0].id, token);
  assert.deepEqual(await checkAuth(t, `admin_session=${token}`), {
    isAuthenticated: true,
    email: ADMIN_EMAIL,
  });
}, options);

appTest("admin: the session cookie is Secure when the public origin is https", async (t) => {
  await seedAdmin(t.db);
  const res = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, {
    origin: "https://zap.example.com",
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.getSetCookie().join("\n"), /admin_session=[a-z2-7]+;.*Secure/);
}, { env: { PUBLIC_ORIGIN: "https://zap.example.com" } });

appTest("admin: unknown e-mail and wrong password get the same answer", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const wrong = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: "wrong password" });
  const unknown = await t.postJson("/api/admin/login", {
    email: "who@example.com",
    password: "wrong password",
  });
  for (const res of [wrong, unknown]) {
    assert.equal(res.status, 401);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(sessionCookieOf(res), undefined);
  }
  const body = await wrong.json();
  assert.deepEqual(body, await unknown.json());
  assert.deepEqual(body, { error: "bad_credentials", success: false, message: "E-mail ou senha inválidos." });
}, options);

appTest("admin: login refuses missing fields and passwords over 128 characters with 400", async (t) => {
  await seedAdmin(t.db);
  const blank = await t.postJson("/api/admin/login", { email: "", password: "" });
  assert.equal(blank.status, 400);
  const body = await blank.json();
  assert.equal(body.error, "validation");
  assert.ok(body.fields.email && body.fields.password);
  assert.equal(body.success, false);
  assert.equal(body.message, "Verifique os campos: e-mail e senha.");
  const long = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: "x".repeat(129) });
  assert.equal(long.status, 400);
  assert.ok((await long.json()).fields.password);
});

appTest("admin: state-changing requests from another origin or not as JSON get 403", async (t) => {
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const evil = { origin: "https://evil.example", cookie };
  for (const path of ["/api/admin/login", "/api/admin/logout", "/api/admin/change-password"]) {
    const res = await t.postJson(path, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, evil);
    assert.equal(res.status, 403, path);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = await res.json();
    assert.equal(body.error, "forbidden");
    // The sign-in and the password change say so in their outcome too; the sign-out has no outcome.
    if (path !== "/api/admin/logout") {
      assert.deepEqual([body.success, typeof body.message], [false, "string"], path);
    }
  }
  // A form post (the classic CSRF vector) is refused even from our own origin.
  const form = await t.request("/api/admin/logout", {
    method: "POST",
    headers: { origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie },
    body: "a=1",
  });
  assert.equal(form.status, 403);
  // No Origin and no Sec-Fetch-Site: refused too.
  const bare = await t.request("/api/admin/logout", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
  });
  assert.equal(bare.status, 403);
  assert.equal((await t.db.query("select 1 from sessions")).length, 1, "the session survived");
});

appTest("admin: change-password without a session answers 401 JSON", async (t) => {
  const res = await t.postJson("/api/admin/change-password", {
    currentPassword: "a",
    newPassword: "bbbbbbbb",
  });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(await res.json(), {
    error: "unauthorized",
    success: false,
    message: "Sessão encerrada. Entre novamente.",
  });
});

appTest(
  "admin: the 6th failed login in 15 minutes from one client gets 429 until the window passes",
  async (t) => {
    clock = new Date("2026-11-10T12:00:00Z");
    await seedAdmin(t.db);
    for (let i = 1; i <= 5; i++) {
      clock = new Date(clock.getTime() + 60_000);
      const res = await t.postJson("/api/admin/login", {
        email: `nobody${i}@example.com`,
        password: "nope-nope",
      });
      assert.equal(res.status, 401, `failure ${i}`);
    }
    // Blocked now, even with the right password.
    const blocked = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(blocked.status, 429);
    assert.match(blocked.headers.get("content-type") ?? "", /application\/json/);
    const retryAfter = Number(blocked.headers.get("retry-after"));
    // The first failure was at 12:01, so the client is free again at 12:16; it is 12:05 now.
    assert.equal(retryAfter, 11 * 60);
    const body = await blocked.json();
    assert.equal(body.error, "rate_limited");
    assert.equal(body.retryAfter, 11 * 60);
    assert.equal(body.success, false);
    assert.equal(body.message, "Muitas tentativas. Aguarde 11 minutos e tente novamente.");
    assert.equal(sessionCookieOf(blocked), undefined);
    clock = new Date(clock.getTime() + retryAfter * 1000);
    const again = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(again.status, 200);
  },
  options,
);

appTest(
  "admin: past 10 failures against one account, unknown browsers wait 2 s, then twice as long after each failure",
  async (t) => {
    clock = new Date("2026-11-10T12:00:00Z");
    await seedAdmin(t.db);
    const from = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });
    for (let i = 1; i <= 10; i++) {
      const res = await t.postJson(
        "/api/admin/login",
        { email: ADMIN_EMAIL, password: "wrong-" + i },
        from(i),
      );
      assert.equal(res.status, 401, `failure ${i}`);
    }
    const blocked = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      from(99),
    );
    assert.equal(blocked.status, 429);
    assert.equal(blocked.headers.get("retry-after"), "2");
    assert.equal((await blocked.json()).message, "Muitas tentativas. Aguarde 2 segundos e tente novamente.");
    // After the wait one more guess is checked; the next wait doubles.
    clock = new Date(clock.getTime() + 2_000);
    assert.equal(
      (await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: "wrong-11" }, from(11))).status,
      401,
    );
    const longer = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      from(99),
    );
    assert.equal(longer.headers.get("retry-after"), "4");
    // The administrator, from a browser never seen before, gets in once the delay has passed.
    clock = new Date(clock.getTime() + 4_000);
    const ok = await t.postJson(
      "/api/admin/login",
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      from(99),
    );
    assert.equal(ok.status, 200);
    // Another account from a fresh client is not affected.
    const other = await t.postJson(
      "/api/admin/login",
      { email: "x@example.com", password: "whatever1" },
      from(98),
    );
    assert.equal(other.status, 401);
    // No IP address is stored, only pseudonymous keys.
    const stored = await t.db.query<{ client_key: string }>("select client_key from login_failures");
    assert.ok(stored.every((r) => /^[0-9a-f]{32}$/.test(r.client_key)));
  },
  { ...options, env: { TRUST_PROXY: "1" } },
);

appTest("admin: logout deletes the session and the cookie stops working", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const res = await t.postJson("/api/admin/logout", "", { cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.deepEqual(await res.json(), { isAuthenticated: false, email: null });
  assert.match(res.headers.getSetCookie().join("\n"), /admin_session=;.*Max-Age=0/);
  assert.equal((await t.db.query("select 1 from sessions")).length, 0);
  assert.deepEqual(await checkAuth(t, cookie), { isAuthenticated: false, email: null });
  const change = await t.postJson("/api/admin/change-password", {
    currentPassword: ADMIN_PASSWORD,
    newPassword: "another password",
  }, { cookie });
  assert.equal(change.status, 401);
}, options);

appTest("admin: a session expires after 30 days and is extended when under 15 days remain", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const expiry = async () =>
    new Date((await t.db.query<{ expires_at: Date }>("select expires_at from sessions"))[0].expires_at)
      .getTime();
  assert.equal(await expiry(), clock.getTime() + 30 * DAY);
  // 10 days in: 20 left, no renewal.
  clock = new Date(clock.getTime() + 10 * DAY);
  let res = await getAs(t, cookie, "/api/admin/check-auth");
  assert.equal((await res.json()).isAuthenticated, true);
  assert.equal(sessionCookieOf(res), undefined);
  // 16 days in: 14 left, extended to 30 from now and the cookie re-sent.
  clock = new Date(clock.getTime() + 6 * DAY);
  res = await getAs(t, cookie, "/api/admin/check-auth");
  assert.equal((await res.json()).isAuthenticated, true);
  assert.equal(sessionCookieOf(res), cookie);
  assert.equal(await expiry(), clock.getTime() + 30 * DAY);
  // 30 days of silence: expired, deleted, cookie cleared.
  clock = new Date(clock.getTime() + 30 * DAY);
  res = await getAs(t, cookie, "/api/admin/check-auth");
  assert.deepEqual(await res.json(), { isAuthenticated: false, email: null });
  assert.match(res.headers.getSetCookie().join("\n"), /admin_session=;/);
  assert.equal((await t.db.query("select 1 from sessions")).length, 0);
}, options);

appTest("admin: changing the password ends every other session and keeps this one", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const laptop = await signIn(t);
  const phone = await signIn(t);
  const newPassword = "a brand new secret";

  const short = await t.postJson("/api/admin/change-password", {
    currentPassword: ADMIN_PASSWORD,
    newPassword: "short",
  }, { cookie: laptop });
  assert.equal(short.status, 400);
  assert.ok((await short.json()).fields.newPassword);

  const wrong = await t.postJson("/api/admin/change-password", {
    currentPassword: "not the password",
    newPassword,
  }, { cookie: laptop });
  assert.equal(wrong.status, 400);
  assert.deepEqual(await wrong.json(), {
    error: "wrong_current_password",
    success: false,
    message: "Senha atual incorreta.",
  });

  const res = await t.postJson(
    "/api/admin/change-password",
    { currentPassword: ADMIN_PASSWORD, newPassword },
    {
      cookie: laptop,
    },
  );
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { success: true, message: "Senha alterada com sucesso." });
  assert.equal((await checkAuth(t, laptop)).isAuthenticated, true);
  assert.equal((await checkAuth(t, phone)).isAuthenticated, false);
  const old = await t.postJson("/api/admin/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(old.status, 401);
  await signIn(t, ADMIN_EMAIL, newPassword);
}, options);

appTest("admin: the start-up bootstrap creates the administrator once and never overwrites it", async (t) => {
  assert.equal(await bootstrapAdmin(t.db, undefined, undefined), false);
  assert.equal(await bootstrapAdmin(t.db, "Boss@Example.com", "first password"), true);
  const first = await findAdminByEmail(t.db, "boss@example.com");
  assert.ok(first);
  assert.equal(await bootstrapAdmin(t.db, "boss@example.com", "second password"), false);
  assert.equal(await bootstrapAdmin(t.db, "other@example.com", "third password"), false);
  assert.equal((await findAdminByEmail(t.db, "boss@example.com"))?.password_hash, first.password_hash);
  assert.equal((await t.db.query("select 1 from admins")).length, 1);
  assert.match(first.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
});

appTest("admin: renewal never extends a session past 90 days after sign-in", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const signedInAt = clock.getTime();
  const cookie = await signIn(t);
  // Daily use: renewed again and again, but never beyond sign-in + 90 days.
  for (let day = 1; day <= 89; day++) {
    clock = new Date(signedInAt + day * DAY);
    const res = await getAs(t, cookie, "/api/admin/check-auth");
    assert.equal((await res.json()).isAuthenticated, true, `day ${day}`);
  }
  const [{ expires_at }] = await t.db.query<{ expires_at: Date }>("select expires_at from sessions");
  assert.equal(new Date(expires_at).getTime(), signedInAt + 90 * DAY);
  clock = new Date(signedInAt + 90 * DAY);
  const res = await getAs(t, cookie, "/api/admin/check-auth");
  assert.deepEqual(await res.json(), { isAuthenticated: false, email: null });
}, options);

appTest("admin: a new password equal to the current one or among the most common is refused", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  for (const newPassword of [ADMIN_PASSWORD, "password123", "Senha123", "12345678", "qwertyuiop"]) {
    const res = await t.postJson("/api/admin/change-password", {
      currentPassword: ADMIN_PASSWORD,
      newPassword,
    }, {
      cookie,
    });
    assert.equal(res.status, 400, newPassword);
    const expected = newPassword === ADMIN_PASSWORD ? "password_same_as_current" : "password_too_common";
    const body = await res.json();
    assert.deepEqual([body.error, body.success], [expected, false], newPassword);
    assert.match(body.message, expected === "password_too_common" ? /mais usadas/ : /diferente da atual/);
  }
  const ok = await t.postJson("/api/admin/change-password", {
    currentPassword: ADMIN_PASSWORD,
    newPassword: "violet lantern orbit 42",
  }, { cookie });
  assert.equal(ok.status, 200);
}, options);

appTest(
  "admin: the password rule's every refusal is a 400 with its reason; the password stays",
  async (t) => {
    clock = new Date("2026-11-10T12:00:00Z");
    await seedAdmin(t.db);
    const cookie = await signIn(t);
    const before = (await findAdminByEmail(t.db, ADMIN_EMAIL))?.password_hash;
    for (
      const [newPassword, error] of ([
        ["        ", "password_blank"],
        ["\u00a0\t\u00a0\t\u00a0\t\u00a0\t", "password_blank"],
        ["CORRECT HORSE BATTERY", "password_same_as_current"],
        [" Correct horse battery ", "password_same_as_current"],
        ["Password123", "password_too_common"],
        ["trustno1", "password_too_common"],
        ["flamengo2024", "password_too_weak"],
        ["Maria2026", "password_too_weak"],
        ["Qwerty2026", "password_too_weak"],
      ] as [string, keyof typeof ERROR_TEXTS][])
    ) {
      const res = await t.postJson("/api/admin/change-password", {
        currentPassword: ADMIN_PASSWORD,
        newPassword,
      }, {
        cookie,
      });
      assert.equal(res.status, 400, newPassword);
      assert.deepEqual(await res.json(), { success: false, error, message: ERROR_TEXTS[error] }, newPassword);
    }
    const short = await t.postJson("/api/admin/change-password", {
      currentPassword: ADMIN_PASSWORD,
      newPassword: "Xk9$mQ2",
    }, { cookie });
    assert.equal(short.status, 400);
    assert.deepEqual((await short.json()).fields, { newPassword: "at least 8 characters" });
    assert.equal((await findAdminByEmail(t.db, ADMIN_EMAIL))?.password_hash, before, "unchanged");
    const ok = await t.postJson("/api/admin/change-password", {
      currentPassword: ADMIN_PASSWORD,
      newPassword: "Xk9$mQ2p",
    }, { cookie });
    assert.equal(ok.status, 200, "8 random characters are enough");
  },
  options,
);

appTest("admin: ADMIN_PASSWORD and the CLI reset follow the same rule as the dashboard", async (t) => {
  await assert.rejects(
    bootstrapAdmin(t.db, "boss@example.com", "password123"),
    (e: Error) => e instanceof UnacceptablePassword && e.reason === "too_common",
  );
  await assert.rejects(
    bootstrapAdmin(t.db, "boss@example.com", "         "),
    (e: Error) => e instanceof UnacceptablePassword && e.reason === "blank",
  );
  assert.equal((await t.db.query("select 1 from admins")).length, 0, "no administrator with a weak password");
  assert.equal(await bootstrapAdmin(t.db, "boss@example.com", "violet lantern orbit 42"), true);
  // Once there is an administrator, ADMIN_PASSWORD is not used, so it is not judged either.
  assert.equal(await bootstrapAdmin(t.db, "boss@example.com", "password123"), false);
  await assert.rejects(
    resetPassword(t.db, "boss@example.com", "flamengo2024"),
    (e: Error) => e instanceof UnacceptablePassword && e.reason === "too_weak",
  );
  assert.equal(await resetPassword(t.db, "boss@example.com", "Tr3m-Azul-Cacto"), true);
});

appTest("admin: guessing the current password in change-password is throttled like sign-in", async (t) => {
  clock = new Date("2026-11-10T12:00:00Z");
  await seedAdmin(t.db);
  const cookie = await signIn(t);
  const statuses = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      t.postJson("/api/admin/change-password", {
        currentPassword: `guess number ${i}`,
        newPassword: "violet lantern orbit 42",
      }, { cookie }).then((r) => r.status)),
  );
  assert.equal(statuses.filter((s) => s === 400).length, 5, JSON.stringify(statuses));
  assert.equal(statuses.filter((s) => s === 429).length, 35);
}, options);
