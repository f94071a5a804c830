// What kind of browser a visit came from, as small categories (device class, browser family and major
// version, operating system family and major version), derived from the User-Agent header and, where the
// browser sends them, the low-entropy client hints (Sec-CH-UA, Sec-CH-UA-Mobile, Sec-CH-UA-Platform). The raw
// user agent is never stored: only these categories (docs/AUDIENCE.md).
//
// The parser is ua-parser-js 1.x, MIT licensed (node_modules/ua-parser-js/license.md of 1.0.41); from 2.0 on
// the package is AGPL-3.0, so it stays on 1.x.
import { UAParser } from "ua-parser-js";

import type { DeviceClass } from "../shared/audience.ts";

export type { DeviceClass };

export interface UserAgentInfo {
  device: DeviceClass;
  /** Browser family ("Chrome", "Safari", "Instagram"...), null when unknown. */
  browser: string | null;
  /** Its major version ("120"), null when unknown. */
  browserVersion: string | null;
  /** Operating system family ("Android", "iOS", "Windows", "macOS", "Linux"...), null when unknown. */
  os: string | null;
  /** Its major version ("14"), null when unknown. */
  osVersion: string | null;
}

/** The low-entropy client hints every Chromium browser sends on a secure origin. */
export interface ClientHints {
  ua?: string | null;
  mobile?: string | null;
  platform?: string | null;
}

const MAX = 40;
const clean = (v: string | undefined | null) => {
  const t = (v ?? "").trim().slice(0, MAX);
  return t === "" ? null : t;
};
const major = (v: string | undefined | null) => {
  const m = /^(\d{1,5})/.exec((v ?? "").trim());
  return m ? String(Number(m[1])) : null;
};

// The parser's names, shortened to what a marketer knows.
const BROWSER_NAMES: Record<string, string> = {
  "Mobile Safari": "Safari",
  "Chrome Headless": "Chrome",
  "Chrome WebView": "Chrome WebView",
  "Mobile Firefox": "Firefox",
  "Opera Mobi": "Opera",
  "Opera Touch": "Opera",
  "MIUI Browser": "MIUI Browser",
};
const OS_NAMES: Record<string, string> = {
  "Mac OS": "macOS",
  "Chromium OS": "ChromeOS",
  "Chrome OS": "ChromeOS",
  Ubuntu: "Linux",
  Debian: "Linux",
  Fedora: "Linux",
  "Linux Mint": "Linux",
  Arch: "Linux",
};
// Sec-CH-UA-Platform values.
const PLATFORM_NAMES: Record<string, string> = {
  Android: "Android",
  "Chrome OS": "ChromeOS",
  "Chromium OS": "ChromeOS",
  iOS: "iOS",
  Linux: "Linux",
  macOS: "macOS",
  Windows: "Windows",
};
// Sec-CH-UA brands that name a browser more precisely than its user agent (Brave's is Chrome's).
const BRANDS: Record<string, string> = {
  "Google Chrome": "Chrome",
  "Microsoft Edge": "Edge",
  Opera: "Opera",
  "Opera GX": "Opera",
  Brave: "Brave",
  "Samsung Internet": "Samsung Internet",
  "Yandex": "Yandex",
  Vivaldi: "Vivaldi",
};

// In-app browsers the parser does not name (WhatsApp's link preview browser adds "WhatsApp/x.y").
const IN_APP: [RegExp, string][] = [
  [/\bWhatsApp\/(\d+)/, "WhatsApp"],
  [/\bTikTok (\d+)|\bmusical_ly_(\d+)|BytedanceWebview/, "TikTok"],
  [/\bLinkedInApp(?:\/(\d+))?/, "LinkedIn"],
];

/** The brand and major version a Sec-CH-UA header names, when it names one we know. */
function brandOf(header: string): { name: string; version: string | null } | null {
  for (const m of header.matchAll(/"([^"]{1,60})"\s*;\s*v="(\d{1,5})/g)) {
    const name = BRANDS[m[1]];
    if (name) return { name, version: major(m[2]) };
  }
  return null;
}

function parse(userAgent: string, hints: ClientHints): UserAgentInfo {
  const r = new UAParser(userAgent).getResult();
  let browser = clean(BROWSER_NAMES[r.browser.name ?? ""] ?? r.browser.name);
  let browserVersion = major(r.browser.major ?? r.browser.version);
  for (const [pattern, name] of IN_APP) {
    const m = pattern.exec(userAgent);
    if (m) {
      browser = name;
      browserVersion = major(m.slice(1).find((g) => g !== undefined) ?? null);
      break;
    }
  }
  const brand = hints.ua ? brandOf(hints.ua) : null;
  // The hint names Brave, Opera... where the user agent only says Chrome; an in-app name stays.
  if (brand && (browser === null || browser === "Chrome" || browser === brand.name)) {
    browser = brand.name;
    browserVersion = brand.version ?? browserVersion;
  }

  let os = clean(OS_NAMES[r.os.name ?? ""] ?? r.os.name);
  let osVersion = major(r.os.version);
  const platform = PLATFORM_NAMES[(hints.platform ?? "").replace(/"/g, "").trim()];
  if (platform && platform !== os) {
    os = platform;
    osVersion = null;
  }
  // Chrome's reduced user agent says "Android 10" and Windows 11 says "Windows NT 10.0" whatever the real
  // version: only the family is sure there.
  if (os === "Android" && / Android 10; K\)/.test(userAgent)) osVersion = null;

  const type = r.device.type;
  let device: DeviceClass = type === "mobile" || type === "wearable"
    ? "mobile"
    : type === "tablet"
    ? "tablet"
    : "desktop";
  const mobileHint = (hints.mobile ?? "").trim();
  if (mobileHint === "?1") device = "mobile";
  else if (device === "desktop" && (os === "Android" || os === "iOS")) {
    // An Android browser without "Mobile" in its user agent (and without ?1) runs on a tablet.
    device = os === "Android" && !/Mobile/.test(userAgent) && mobileHint !== "?1" ? "tablet" : "mobile";
  }
  return { device, browser, browserVersion, os, osVersion };
}

// A handful of browsers make most traffic, and the answer for a user agent and its hints never changes.
const seen = new Map<string, UserAgentInfo>();

/** The categories of a (non-bot) request's user agent and client hints. */
export function userAgentInfo(userAgent: string | undefined | null, hints: ClientHints = {}): UserAgentInfo {
  const ua = (userAgent ?? "").slice(0, 1000);
  const key = `${ua}\n${hints.ua ?? ""}\n${hints.mobile ?? ""}\n${hints.platform ?? ""}`;
  let info = seen.get(key);
  if (!info) {
    info = parse(ua, hints);
    if (seen.size >= 1000) seen.clear();
    seen.set(key, info);
  }
  return info;
}
