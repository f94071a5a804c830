// A visitor of the public site for browser tests: a desktop Chrome user agent (headless ones are treated as
// bots and not counted), with the external checkout and WhatsApp hosts intercepted and timed.
import type { BrowserContext, Locator, Page, Route } from "playwright-core";
import { getBrowser, type Served } from "./browser.ts";

export const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

export interface External {
  url: string;
  at: number;
}

export async function visitor(server: Served, viewport = { width: 1366, height: 900 }) {
  const context = await (await getBrowser()).newContext({ viewport, locale: "pt-BR", userAgent: UA });
  await watchOutbox(context);
  await journalPointer(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const leadAnswers: number[] = [];
  page.on("console", (msg) => {
    if (msg.text().startsWith(LEAD_ANSWERED)) {
      leadAnswers.push(Number(msg.text().slice(LEAD_ANSWERED.length)));
    }
  });
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
  return { context, page, errors, external, leadAnswers, base: server.baseUrl };
}

/** What the page logs (`watchOutbox`) when its lead request is answered, followed by the page's `Date.now()`. */
const LEAD_ANSWERED = "test: lead request answered at ";

/**
 * When the page's script had the answer to its lead request (or its failure), by the page's own clock (the same
 * wall clock as this process's `Date.now()`, which times the redirect in `visitor`): the dialog's redirect
 * delay starts then. Not when this process noticed the answer: on a busy machine the notice comes 100 ms and
 * more later, which made a redirect timed from it look early. Nor the browser's network timing of the
 * response, which once put a redirect that comes 800 ms after the answer at 673 ms.
 */
export async function leadAnsweredAt(v: { leadAnswers: number[] }): Promise<number> {
  return (await waitFor(() => Promise.resolve(v.leadAnswers), (at) => at.length > 0, 10_000))[0];
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

/**
 * Keeps the page's last pointer and click events (type, where, what they met, when) in `__pointerJournal`, so
 * a click that opened nothing can say where it went (`planDialog`).
 */
async function journalPointer(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const journal: string[] = [];
    (globalThis as unknown as { __pointerJournal: string[] }).__pointerJournal = journal;
    for (const type of ["pointerdown", "pointerup", "click"]) {
      addEventListener(type, (event) => {
        const e = event as MouseEvent;
        const target = e.target instanceof Element ? e.target.outerHTML.slice(0, 100) : String(e.target);
        journal.push(
          `${type} at ${e.clientX},${e.clientY} on ${target} (+${Math.round(performance.now())} ms)`,
        );
        if (journal.length > 12) journal.shift();
      }, { capture: true });
    }
  });
}

/**
 * Clicks a plan (or specialist) button and waits for the lead dialog. If none shows, fails with what the page
 * knew: the root's state, the dialog's, buttons left busy, the analytics events, what the button's centre
 * meets now and where the last clicks went. At 390 px this showed a press on the button released on the phone
 * bar sliding in over it (no click at all; fixed in src/ui/styles/phone.css); it stays for a click at 1366 px
 * that once opened nothing, under heavy load, with no report then.
 */
export async function planDialog(v: Awaited<ReturnType<typeof visitor>>, button: Locator): Promise<Locator> {
  // In the middle of the screen first, as a person looks at what they press. Left to itself, the click scrolls
  // the button only just into view, to the screen's foot at 390 px; the hero then leaves the screen and the
  // phone bar slides in over the button. One CI run pressed the button there and released 71 ms later on the
  // bar (no click at all: the press and the release met two elements). A finger's touch stays with the element
  // it began on, so this is the mouse's case only.
  await button.evaluate((b) => b.scrollIntoView({ block: "center" }));
  await button.click();
  const dialog = v.page.getByRole("dialog");
  await dialog.waitFor().catch(async (error) => {
    const state = await v.page.evaluate(() => {
      const w = globalThis as unknown as { dataLayer?: { event: string }[]; __pointerJournal?: string[] };
      const d = document.querySelector("dialog");
      return {
        root: { ...document.documentElement.dataset, classes: document.documentElement.className },
        dialog: d && { open: d.open, wired: d.dataset.wired, display: getComputedStyle(d).display },
        events: w.dataLayer?.map((e) => e.event),
        busy: [...document.querySelectorAll("[aria-busy=true]")].map((e) => e.textContent?.trim()),
        pointer: w.__pointerJournal,
      };
    }).catch((e) => String(e));
    const atButton = await button.evaluate((b) => {
      const r = b.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return {
        box: [r.x, r.y, r.width, r.height].map(Math.round),
        scrollY,
        hit: hit?.outerHTML.slice(0, 100),
      };
    }).catch((e) => String(e));
    throw new Error(
      `no dialog after the click; the page is at ${v.page.url()}, state ${JSON.stringify(state)}, ` +
        `at the button ${JSON.stringify(atButton)}, page errors ${JSON.stringify(v.errors)}`,
      { cause: error },
    );
  });
  return dialog;
}

/**
 * Lets a test see the lead outbox's flush, which every public page runs once when idle: counts the page's
 * reads of the outbox (only the flush reads it on a page load with no form sent) and its fetches still
 * unanswered. Install on the context before the pages open; `outboxFlushed` then waits on it.
 */
export async function watchOutbox(context: BrowserContext): Promise<void> {
  await context.addInitScript((prefix) => {
    const w = globalThis as unknown as { __outboxReads: number; __fetchesPending: number };
    w.__outboxReads = 0;
    w.__fetchesPending = 0;
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = function (key: string) {
      if (key === "zapflow.leadOutbox") w.__outboxReads++;
      return getItem.call(this, key);
    };
    const fetch = globalThis.fetch;
    globalThis.fetch = function (...args: Parameters<typeof fetch>) {
      w.__fetchesPending++;
      const answer = fetch.apply(this, args);
      const settled = () => void w.__fetchesPending--;
      answer.then(settled, settled);
      // The lead request's answer, timed before the dialog's script sees it (this callback comes first).
      const url = args[0] instanceof Request ? args[0].url : String(args[0]);
      if (url.endsWith("/api/leads")) {
        const said = () => console.debug(`${prefix}${Date.now()}`);
        answer.then(said, said);
      }
      return answer;
    };
  }, LEAD_ANSWERED);
}

/**
 * Waits until this page's outbox flush has run and whatever it sent has been answered: the flush has read
 * the outbox, every delivery it started (each holds the outbox's Web Lock while it sends, then records the
 * conversion) is over, and no fetch is unanswered. What a flush would do with a waiting lead (send it,
 * record its conversion and Lead event) has happened by then; a test that then sees nothing proves nothing
 * was waiting. Needs `watchOutbox` on the page's context. Throws if the flush never reads the outbox.
 */
export async function outboxFlushed(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (globalThis as unknown as { __outboxReads?: number }).__outboxReads! > 0,
    null,
    { timeout: 15_000 },
  ).catch(() => {
    throw new Error("the page never flushed the lead outbox (is watchOutbox installed on its context?)");
  });
  await page.evaluate(async () => {
    const w = globalThis as unknown as { __outboxReads: number; __fetchesPending: number };
    let reads: number;
    do {
      reads = w.__outboxReads;
      // Queued behind a delivery in progress: granted once it has sent its lead and recorded its conversion.
      await navigator.locks?.request("zapflow.leadOutbox", () => {});
      while (w.__fetchesPending > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    } while (reads !== w.__outboxReads); // a further delivery read the outbox meanwhile: wait for it too
  });
}

/**
 * Resolves once the browser has reported every request the page started before this call: the page starts
 * one more (a health check carrying a marker) and Chromium reports a page's requests in the order they start.
 * For "nothing more was sent" without waiting a fixed time.
 */
export async function requestsSeen(page: Page): Promise<void> {
  const marker = `/healthz?seen=${crypto.randomUUID()}`;
  const seen = page.waitForRequest((r) => r.url().endsWith(marker), { timeout: 10_000 });
  await page.evaluate((m) => void fetch(m).catch(() => {}), marker);
  await seen;
}
