// Builds the real app against a test database, with a fake client manifest so no build is needed.
import type { Hono } from "hono";
import { type Config, loadConfig } from "../src/config.ts";
import type { Db } from "../src/db/client.ts";
import { createApp } from "../src/app.ts";
import type { Assets } from "../src/server/assets.ts";
import type { AppDeps, AppEnv } from "../src/server/env.ts";
import { loadLocales, type Locales } from "../src/server/locales.ts";
import { setLogLevel } from "../src/core/log.ts";
import { type DbKind, dbKinds, emptyDb } from "./db.ts";

// One line per request would bury the test report; tests that check logs capture them at "info".
setLogLevel("warn");

export const TEST_ORIGIN = "http://localhost:8000";

/** A manifest stand-in: every entry has a script and no imports. */
export const fakeAssets: Assets = {
  entry: (name) => ({ js: `/assets/${name}-TEST.js`, css: [], imports: [] }),
  inlineCss: () => undefined,
};

let locales: Promise<Locales> | undefined;

/** A config from defaults plus the given variables (as strings, like the environment). */
export function testConfig(env: Record<string, string> = {}): Config {
  // app.request() has no connection (its peer reads as 0.0.0.0): tests that set TRUST_PROXY=1 act as if
  // that peer were their trusted proxy, unless they name the proxies themselves.
  const proxies = env.TRUST_PROXY === "1" && !env.TRUSTED_PROXIES ? { TRUSTED_PROXIES: "0.0.0.0" } : {};
  return loadConfig({ PUBLIC_ORIGIN: TEST_ORIGIN, ...proxies, ...env });
}

export interface TestApp {
  app: Hono<AppEnv>;
  db: Db;
  deps: AppDeps;
  /** `app.request` with a same-origin browser's headers unless overridden. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs JSON from the site's own origin. */
  postJson(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  assets?: Assets;
  now?: () => Date;
  db?: Db;
  /** Routes added before the catch-alls, as `start`'s `extend` adds them (bench/server.ts). */
  extend?: (app: Hono<AppEnv>) => void;
}

/** The real app over an empty test database. */
export async function testApp(kind: DbKind, options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? await emptyDb(kind);
  locales ??= loadLocales();
  const deps: AppDeps = {
    config: testConfig(options.env),
    db,
    assets: options.assets ?? fakeAssets,
    locales: await locales,
    now: options.now,
  };
  const app = await createApp(deps, { extend: options.extend });
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("user-agent")) {
      headers.set(
        "user-agent",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
      );
    }
    return Promise.resolve(app.request(path, { ...init, headers }));
  };
  return {
    app,
    db,
    deps,
    request,
    postJson: (path, body, headers = {}) =>
      request(path, {
        method: "POST",
        body: typeof body === "string" ? body : JSON.stringify(body),
        headers: { "content-type": "application/json", origin: TEST_ORIGIN, ...headers },
      }),
  };
}

/** Registers one test per database kind with a fresh app: `${kind}: ${name}`. */
export function appTest(
  name: string,
  fn: (t: TestApp, kind: DbKind) => Promise<void>,
  options?: TestAppOptions,
) {
  for (const kind of dbKinds()) {
    Deno.test({
      name: `${kind}: ${name}`,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => await fn(await testApp(kind, options), kind),
    });
  }
}
