import { isbot } from "isbot";

/**
 * True for crawlers, monitors and automated browsers: their requests are answered like anyone's but not
 * counted. A missing user agent counts as automated too (every real browser sends one).
 */
export function isAutomated(userAgent: string | undefined): boolean {
  if (!userAgent) return true;
  let automated = seen.get(userAgent);
  if (automated === undefined) {
    automated = isbot(userAgent) ||
      /headless|phantomjs|puppeteer|playwright|selenium|webdriver/i.test(userAgent);
    if (seen.size >= 1000) seen.clear(); // a handful of browsers make most traffic; strangers just recompute
    seen.set(userAgent, automated);
  }
  return automated;
}

// isbot's pattern is large; the answer for a user agent never changes.
const seen = new Map<string, boolean>();
