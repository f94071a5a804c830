// Browser-test support: the real app (built client, test database) served on a free port, and the system
// Chromium driven by playwright-core. Tests are skipped, loudly, when Chromium is missing.
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { createApp } from "../src/app.ts";
import { loadAssets, readBuildVersion } from "../src/server/assets.ts";
import { loadLocales } from "../src/server/locales.ts";
import type { AppDeps } from "../src/server/env.ts";
import type { Db } from "../src/db/client.ts";
import { testConfig } from "../testing/app.ts";
import { emptyDb } from "../testing/db.ts";

const isFile = (path: string) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
};

/** The full Chromium (Lighthouse needs it). */
export const CHROME_PATH = Deno.env.get("CHROME_PATH") || "/usr/bin/chromium";
/**
 * What the tests drive: Chromium's headless shell (Debian's chromium-headless-shell: the same Blink and V8
 * without the browser's own window and tab-strip pages, so a new context costs far less CPU) when it is
 * installed, else the full Chromium. CHROME_HEADLESS_SHELL names another shell.
 */
const HEADLESS_SHELL = Deno.env.get("CHROME_HEADLESS_SHELL") || "/usr/lib/chromium/chromium-headless-shell";
export const TEST_CHROME_PATH = isFile(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROME_PATH;
export const HAS_CHROME = isFile(TEST_CHROME_PATH);

export const CHROME_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

let browser: Promise<Browser> | undefined;

/** One Chromium per test process. */
export function getBrowser(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: TEST_CHROME_PATH, args: CHROME_ARGS });
  return browser;
}

export interface Served {
  baseUrl: string;
  db: Db;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * Serves the real app with the built client over an empty PGlite database. `now` fixes the server's clock
 * (AppDeps.now): a test that also fixes the browser's (`page.clock.setFixedTime`) and the seed's (`now`) sees
 * the same day whatever the real date and time.
 */
export async function serveApp(
  env: Record<string, string> = {},
  options: { now?: () => Date } = {},
): Promise<Served> {
  const db = await emptyDb("pglite");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const deps: AppDeps = {
    config: testConfig({ PUBLIC_ORIGIN: baseUrl, PORT: String(port), ...env }),
    db,
    assets: await loadAssets(),
    locales: await loadLocales(),
    version: await readBuildVersion(),
    now: options.now,
  };
  const app = await createApp(deps);
  const server = Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, app.fetch);
  return { baseUrl, db, deps, close: () => server.shutdown() };
}

function freePort(): number {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export interface PageProblems {
  consoleErrors: string[];
  failedRequests: string[];
}

/**
 * The instant the dashboard tests pin the seed, the server (`serveApp`'s `now`) and the browser (`openPage`'s
 * `now`) to: 21 November 2026, 12:00 in São Paulo, three weeks into a month whose previous month is whole. With
 * the real clock, a run in a month's first hour, or across midnight, read a month without data.
 */
export const FIXED_NOW = new Date("2026-11-21T12:00:00-03:00");

/**
 * Opens a page that records console errors, page errors and failed same-origin requests; `timezoneId` sets
 * the browser's time zone (default: the machine's), `now` fixes its clock (`Date`; its timers still run).
 */
export async function openPage(
  baseUrl: string,
  viewport = { width: 1366, height: 900 },
  options: { timezoneId?: string; now?: Date } = {},
): Promise<{ page: Page; problems: PageProblems; close(): Promise<void> }> {
  const { now, ...contextOptions } = options;
  const context = await (await getBrowser()).newContext({ viewport, locale: "pt-BR", ...contextOptions });
  const page = await context.newPage();
  if (now) await page.clock.setFixedTime(now);
  const problems: PageProblems = { consoleErrors: [], failedRequests: [] };
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.consoleErrors.push(msg.text());
  });
  page.on("pageerror", (error) => problems.consoleErrors.push(String(error)));
  page.on("requestfailed", (req) => {
    // ERR_ABORTED is the browser cancelling a load itself (a lazy image still in flight when the test
    // navigates on); a request the server failed shows up as a status below.
    if (req.url().startsWith(baseUrl) && req.failure()?.errorText !== "net::ERR_ABORTED") {
      problems.failedRequests.push(`${req.url()} ${req.failure()?.errorText}`);
    }
  });
  page.on("response", (res) => {
    if (res.url().startsWith(baseUrl) && res.status() >= 400 && !res.url().includes("/nope")) {
      problems.failedRequests.push(`${res.url()} ${res.status()}`);
    }
  });
  return { page, problems, close: () => context.close() };
}

/** Whether this run takes the pictures of the product (see `screenshot`). */
export const UPDATE_SCREENSHOTS = Deno.env.get("UPDATE_SCREENSHOTS") === "1";

/**
 * A picture of the product for people to look at: `name` is its file under docs/screenshots/ (a folder in it
 * may lead, as in "issue-31/card-1-sent-390.png"). A picture asserts nothing and costs the headless shell a
 * frame drawn and encoded (one failed a suite run with "Unable to capture screenshot" after every assertion of
 * its test had passed), so the suite takes none and leaves the tree as it was. `UPDATE_SCREENSHOTS=1 deno test
 * -A e2e/<file>` takes them, over the committed ones; a picture that cannot be taken then fails the test.
 */
export async function screenshot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!UPDATE_SCREENSHOTS) return;
  const path = new URL(`../docs/screenshots/${name}`, import.meta.url);
  await Deno.mkdir(new URL(".", path), { recursive: true });
  await target.screenshot({ path: path.pathname, ...options });
}

/** Registers a browser test; skipped (and said so) when Chromium is missing. */
export function browserTest(name: string, fn: () => Promise<void>): void {
  Deno.test({
    name: `browser: ${name}`,
    ignore: !HAS_CHROME,
    sanitizeResources: false,
    sanitizeOps: false,
    fn,
  });
}

globalThis.addEventListener("unload", () => {
  browser?.then((b) => b.close()).catch(() => {});
});

/** The elements whose right edge passes the screen (outermost first), to name what makes a page scroll sideways. */
export async function widerThanScreen(page: Page): Promise<string> {
  return await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.right <= innerWidth + 0.5 || r.width === 0) continue;
      // Inside a box that scrolls or clips sideways, it does not widen the page.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== "visible") clipped = true;
      }
      if (clipped && !["fixed", "absolute"].includes(getComputedStyle(el).position)) continue;
      const cls = typeof el.className === "string" && el.className
        ? `.${el.className.split(" ").join(".")}`
        : "";
      const parent = el.parentElement?.closest("[class]");
      const within = parent
        ? ` in ${parent.tagName.toLowerCase()}.${parent.className.split(" ").join(".")}`
        : "";
      out.push(`${el.tagName.toLowerCase()}${cls}${within} right ${Math.round(r.right)}`);
      if (out.length === 5) break;
    }
    return out.join("; ") || "no element found";
  });
}
