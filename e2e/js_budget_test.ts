// JavaScript before any interaction, on every public page (issue 16): the gzip bytes of every script the page
// fetched while loading and settling (no click, no hover), printed per page. Budget: 25 KB (25,000 bytes).
import assert from "node:assert/strict";
import { browserTest, openPage, serveApp } from "./browser.ts";
import { SITE_PAGES } from "./site_fixtures.ts";

export const JS_BUDGET_BYTES = 25_000;

browserTest(
  "js budget: every public page loads at most 25 KB of gzip JavaScript before interaction",
  async () => {
    const server = await serveApp();
    const { baseUrl } = server;
    const gzipSize = new Map<string, number>();
    /** Bytes on the wire when the file is asked for in gzip (Chromium itself asks for brotli). */
    const gzipBytes = async (url: string) => {
      if (!gzipSize.has(url)) {
        const res = await fetch(url, { headers: { "accept-encoding": "gzip" } });
        assert.equal(res.headers.get("content-encoding"), "gzip", url);
        // fetch hands back the body decompressed; the bytes on the wire are the Content-Length.
        const length = Number(res.headers.get("content-length"));
        await res.body?.cancel();
        assert.ok(length > 0, `${url}: Content-Length`);
        gzipSize.set(url, length);
      }
      return gzipSize.get(url)!;
    };
    const rows: string[] = [];
    const over: string[] = [];
    try {
      for (const p of SITE_PAGES) {
        // A fresh context per page: nothing comes from an earlier page's cache.
        const { page, close } = await openPage(baseUrl, { width: 390, height: 844 });
        try {
          const scripts = new Set<string>();
          page.on("request", (req) => {
            if (req.resourceType() === "script") scripts.add(req.url());
          });
          await page.goto(baseUrl + p.path);
          await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
          await page.waitForLoadState("networkidle");
          // Idle-time work (the outbox flush) has had its chance to fetch anything more.
          await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 2500 })));
          await page.waitForLoadState("networkidle");
          const local = [...scripts].filter((u) => u.startsWith(baseUrl));
          assert.deepEqual(
            [...scripts].filter((u) => !u.startsWith(baseUrl)),
            [],
            `${p.path}: third-party script`,
          );
          let total = 0;
          for (const url of local) total += await gzipBytes(url);
          rows.push(
            `${p.path.padEnd(42)} ${String(local.length).padStart(2)} files ${total.toLocaleString("en")} B`,
          );
          if (total > JS_BUDGET_BYTES) over.push(`${p.path}: ${total} bytes`);
        } finally {
          await close();
        }
      }
      console.log(`JavaScript before interaction (gzip):\n${rows.join("\n")}`);
      assert.deepEqual(over, [], `over ${JS_BUDGET_BYTES} bytes of gzip JavaScript`);
    } finally {
      await server.close();
    }
  },
);
