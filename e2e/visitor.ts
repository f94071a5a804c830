// A visitor of the public site for browser tests: a desktop Chrome user agent (headless ones are treated as
// bots and not counted), with the external checkout and WhatsApp hosts intercepted and timed.
import type { Page, Route } from "playwright-core";
import { getBrowser, type Served } from "./browser.ts";

export const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

export interface External {
  url: string;
  at: number;
}

export async function visitor(server: Served, viewport = { width: 1366, height: 900 }) {
  const context = await (await getBrowser()).newContext({ viewport, locale: "pt-BR", userAgent: UA });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const external: External[] = [];
  const fulfil = async (route: Route) => {
    external.push({ url: route.request().url(), at: Date.now() });
    await route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>ok</title>ok",
    });
  };
  await context.route("https://app.zapflow.com.br/**", fulfil);
  await context.route("https://wa.me/**", fulfil);
  return { context, page, errors, external, base: server.baseUrl };
}

/** Opens a page and waits until its islands are hydrated. */
export async function land(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
}

export function planButton(page: Page, plan: string) {
  return page.getByRole("button", { name: `Assinar agora (${plan})` });
}

/**
 * Polls `fn` every 100 ms until `ok` holds and returns that value; throws after `ms` (with the last value), so
 * a wait that never comes true fails where it waited instead of passing on to assertions that may not look.
 */
export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  let value = await fn();
  while (!ok(value)) {
    if (Date.now() >= end) {
      throw new Error(`waitFor: not so after ${ms} ms; last value ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
    value = await fn();
  }
  return value;
}
