import { isbot } from "isbot";

/**
 * True for crawlers, monitors and automated browsers: their requests are answered like anyone's but not
 * counted. A missing user agent counts as automated too (every real browser sends one).
 */
export function isAutomated(userAgent: string | undefined): boolean {
  if (!userAgent) return true;
  return isbot(userAgent) || /headless|phantomjs|puppeteer|playwright|selenium|webdriver/i.test(userAgent);
}
