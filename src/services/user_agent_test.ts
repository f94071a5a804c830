// 30 real user agents (phones, tablets, desktops, in-app browsers) with the categories stored for each, and
// the client hints' part. Run with `-- --print` after `deno test` to see the table (docs/AUDIENCE.md shows it).
import assert from "node:assert/strict";
const assertEquals = (a: unknown, b: unknown, m?: string) => assert.deepEqual(a, b, m);
import { userAgentInfo } from "./user_agent.ts";
import { isAutomated } from "./bots.ts";

type Row = [string, string, string, string];

// user agent, device, "browser major", "os major"
export const USER_AGENTS: Row[] = [
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "mobile",
    "Safari 17",
    "iOS 17",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_7_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.111 Mobile/15E148 Safari/604.1",
    "mobile",
    "Chrome 124",
    "iOS 16",
  ],
  [
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    "mobile",
    "Chrome 124",
    "Android -",
  ],
  [
    "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36",
    "mobile",
    "Chrome 120",
    "Android 13",
  ],
  [
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
    "mobile",
    "Samsung Internet 23",
    "Android -",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
    "mobile",
    "Samsung Internet 24",
    "Android 14",
  ],
  [
    "Mozilla/5.0 (Linux; Android 12; moto g(60)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36",
    "mobile",
    "Chrome 119",
    "Android 12",
  ],
  [
    "Mozilla/5.0 (Linux; Android 13; 2201117TG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.6167.101 Mobile Safari/537.36",
    "mobile",
    "Chrome 121",
    "Android 13",
  ],
  [
    "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
    "mobile",
    "Firefox 125",
    "Android 14",
  ],
  [
    "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
    "tablet",
    "Safari 16",
    "iOS 16",
  ],
  [
    "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "tablet",
    "Chrome 120",
    "Android 13",
  ],
  [
    "Mozilla/5.0 (Linux; Android 11; Lenovo TB-X306F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Safari/537.36",
    "tablet",
    "Chrome 118",
    "Android 11",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "desktop",
    "Chrome 124",
    "Windows 10",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0",
    "desktop",
    "Edge 120",
    "Windows 10",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0",
    "desktop",
    "Firefox 126",
    "Windows 10",
  ],
  [
    "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36",
    "desktop",
    "Chrome 109",
    "Windows 7",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
    "desktop",
    "Opera 110",
    "Windows 10",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "desktop",
    "Safari 17",
    "macOS 10",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "desktop",
    "Chrome 124",
    "macOS 10",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0",
    "desktop",
    "Firefox 125",
    "macOS 14",
  ],
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "desktop",
    "Chrome 124",
    "Linux -",
  ],
  [
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    "desktop",
    "Firefox 125",
    "Linux -",
  ],
  [
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "desktop",
    "Chrome 124",
    "ChromeOS 14541",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 335.0.0.28.77 (iPhone14,5; iOS 17_5; pt_BR; pt; scale=3.00; 1170x2532; 614431617)",
    "mobile",
    "Instagram 335",
    "iOS 17",
  ],
  [
    "Mozilla/5.0 (Linux; Android 13; SM-A325M Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 Instagram 329.0.0.41.93 Android (33/13; 450dpi; 1080x2194; samsung; SM-A325M; a32; mt6769t; pt_BR; 590018672)",
    "mobile",
    "Instagram 329",
    "Android 13",
  ],
  [
    "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/446.0.0.41.108;]",
    "mobile",
    "Facebook 446",
    "Android 13",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.36.108;FBBV/583337460;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4.1;FBSS/3;FBID/phone;FBLC/pt_BR;FBOP/5]",
    "mobile",
    "Facebook 458",
    "iOS 17",
  ],
  [
    "Mozilla/5.0 (Linux; Android 12; moto g(60)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 WhatsApp/2.23.25.84",
    "mobile",
    "WhatsApp 2",
    "Android 12",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A.240405.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.54 Mobile Safari/537.36",
    "mobile",
    "Chrome WebView 124",
    "Android 14",
  ],
  [
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.64",
    "mobile",
    "Edge 124",
    "Android -",
  ],
];

const show = (name: string | null, version: string | null) => `${name ?? "-"} ${version ?? "-"}`;

Deno.test("30 real user agents: the device class, browser and OS stored for each", () => {
  const got = USER_AGENTS.map(([ua]) => {
    const i = userAgentInfo(ua);
    return [ua, i.device, show(i.browser, i.browserVersion), show(i.os, i.osVersion)];
  });
  if (Deno.args.includes("--print")) {
    for (const [ua, d, b, o] of got) console.log(`| ${d} | ${b} | ${o} | ${ua.slice(0, 90)} |`);
  }
  assertEquals(USER_AGENTS.length, 30);
  assertEquals(got, USER_AGENTS);
});

Deno.test("client hints: ?1 makes a phone, the platform names the OS, a brand names Brave or Opera", () => {
  const reduced =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
  const brave = userAgentInfo(reduced, {
    ua: '"Chromium";v="124", "Brave";v="124", "Not-A.Brand";v="99"',
    mobile: "?0",
    platform: '"Windows"',
  });
  assertEquals([brave.device, brave.browser, brave.browserVersion, brave.os], [
    "desktop",
    "Brave",
    "124",
    "Windows",
  ]);
  const phone = userAgentInfo(reduced, { mobile: "?1", platform: '"Android"' });
  assertEquals([phone.device, phone.os, phone.osVersion], ["mobile", "Android", null]);
  // Greasy brands ("Not-A.Brand") and Chromium itself name nothing.
  const chrome = userAgentInfo(reduced, { ua: '"Not-A.Brand";v="99", "Chromium";v="124"' });
  assertEquals([chrome.browser, chrome.browserVersion], ["Chrome", "124"]);
});

Deno.test("bots are left out before any of this: crawlers and headless browsers are automated", () => {
  for (
    const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36",
    ]
  ) assertEquals(isAutomated(ua), true, ua);
  assertEquals(isAutomated(USER_AGENTS[0][0]), false);
});
