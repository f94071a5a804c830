// Known referrer hosts and UTM source names, kept as data: each entry names a source and its kind, which the
// channel rules (services/attribution.ts) read the way GA4 reads its source-category list. A host matches an
// entry when it is one of its hosts or a subdomain of one (l.instagram.com is instagram.com); Android apps
// refer as their package name (android-app://com.google.android.gm), listed as hosts too.

export type SourceCategory = "search" | "social" | "video" | "email" | "ai";

export interface KnownSource {
  /** The normalised source name the dashboard shows. */
  name: string;
  category: SourceCategory;
  /** Hosts (and their subdomains) that refer as this source. */
  hosts: string[];
  /** UTM source spellings that mean this source ("ig", "fb"), besides `name` and `hosts`. */
  aliases?: string[];
  /**
   * Second-level names that refer as this source on any country domain, bare or with www./m. only
   * (google.com.br, google.co.uk): other subdomains (docs.google.com) are other sites.
   */
  countryDomains?: string[];
}

export const KNOWN_SOURCES: KnownSource[] = [
  // Search engines
  {
    name: "google",
    category: "search",
    hosts: ["com.google.android.googlequicksearchbox", "com.google.android.gsf", "news.google.com"],
    countryDomains: ["google"],
  },
  { name: "bing", category: "search", hosts: ["bing.com", "cn.bing.com"], countryDomains: ["bing"] },
  { name: "duckduckgo", category: "search", hosts: ["duckduckgo.com", "com.duckduckgo.mobile.android"] },
  {
    name: "yahoo",
    category: "search",
    hosts: ["search.yahoo.com", "yahoo.com", "br.search.yahoo.com"],
    countryDomains: ["yahoo"],
  },
  {
    name: "yandex",
    category: "search",
    hosts: ["yandex.ru", "yandex.com", "ya.ru"],
    countryDomains: ["yandex"],
  },
  { name: "baidu", category: "search", hosts: ["baidu.com", "m.baidu.com"] },
  { name: "ecosia", category: "search", hosts: ["ecosia.org"] },
  { name: "brave", category: "search", hosts: ["search.brave.com"] },
  { name: "qwant", category: "search", hosts: ["qwant.com"] },
  { name: "startpage", category: "search", hosts: ["startpage.com"] },
  { name: "naver", category: "search", hosts: ["naver.com"] },
  { name: "seznam", category: "search", hosts: ["seznam.cz"] },
  { name: "ask", category: "search", hosts: ["ask.com"] },
  { name: "aol", category: "search", hosts: ["search.aol.com", "aol.com"] },
  // Social networks and messengers
  {
    name: "facebook",
    category: "social",
    hosts: ["facebook.com", "fb.com", "fb.me", "com.facebook.katana", "com.facebook.lite"],
    aliases: ["fb", "meta"],
  },
  {
    name: "instagram",
    category: "social",
    hosts: ["instagram.com", "com.instagram.android", "com.instagram.barcelona"],
    aliases: ["ig", "insta"],
  },
  { name: "linkedin", category: "social", hosts: ["linkedin.com", "lnkd.in", "com.linkedin.android"] },
  {
    name: "x",
    category: "social",
    hosts: ["twitter.com", "t.co", "x.com", "com.twitter.android"],
    aliases: ["twitter"],
  },
  {
    name: "tiktok",
    category: "social",
    hosts: ["tiktok.com", "com.zhiliaoapp.musically", "com.ss.android.ugc.trill"],
  },
  {
    name: "whatsapp",
    category: "social",
    hosts: ["whatsapp.com", "wa.me", "com.whatsapp", "com.whatsapp.w4b"],
    aliases: ["wa", "zap"],
  },
  { name: "telegram", category: "social", hosts: ["t.me", "telegram.org", "org.telegram.messenger"] },
  { name: "messenger", category: "social", hosts: ["messenger.com", "com.facebook.orca"] },
  { name: "threads", category: "social", hosts: ["threads.net", "threads.com"] },
  { name: "pinterest", category: "social", hosts: ["pinterest.com", "pin.it", "com.pinterest"] },
  { name: "reddit", category: "social", hosts: ["reddit.com", "redd.it", "com.reddit.frontpage"] },
  { name: "quora", category: "social", hosts: ["quora.com"] },
  { name: "discord", category: "social", hosts: ["discord.com", "discordapp.com", "discord.gg"] },
  { name: "snapchat", category: "social", hosts: ["snapchat.com"] },
  { name: "kwai", category: "social", hosts: ["kwai.com", "com.kwai.video"] },
  { name: "bluesky", category: "social", hosts: ["bsky.app"] },
  { name: "slack", category: "social", hosts: ["slack.com", "com.slack"] },
  // Video
  {
    name: "youtube",
    category: "video",
    hosts: ["youtube.com", "youtu.be", "com.google.android.youtube"],
    aliases: ["yt"],
  },
  { name: "vimeo", category: "video", hosts: ["vimeo.com"] },
  { name: "twitch", category: "video", hosts: ["twitch.tv"] },
  { name: "dailymotion", category: "video", hosts: ["dailymotion.com"] },
  // Webmail and mail apps: a link followed from a message
  {
    name: "gmail",
    category: "email",
    hosts: ["mail.google.com", "inbox.google.com", "com.google.android.gm"],
  },
  {
    name: "outlook",
    category: "email",
    hosts: [
      "outlook.live.com",
      "outlook.office.com",
      "outlook.office365.com",
      "com.microsoft.office.outlook",
    ],
  },
  { name: "yahoo mail", category: "email", hosts: ["mail.yahoo.com", "br.mail.yahoo.com"] },
  { name: "proton mail", category: "email", hosts: ["mail.proton.me"] },
  { name: "uol mail", category: "email", hosts: ["email.uol.com.br"] },
  // AI assistants
  { name: "chatgpt", category: "ai", hosts: ["chatgpt.com", "chat.openai.com", "com.openai.chatgpt"] },
  { name: "perplexity", category: "ai", hosts: ["perplexity.ai", "ai.perplexity.app.android"] },
  { name: "gemini", category: "ai", hosts: ["gemini.google.com", "bard.google.com"] },
  { name: "claude", category: "ai", hosts: ["claude.ai"] },
  { name: "copilot", category: "ai", hosts: ["copilot.microsoft.com"] },
  { name: "deepseek", category: "ai", hosts: ["chat.deepseek.com", "deepseek.com"] },
  { name: "grok", category: "ai", hosts: ["grok.com"] },
  { name: "meta ai", category: "ai", hosts: ["meta.ai"] },
  { name: "mistral", category: "ai", hosts: ["chat.mistral.ai"] },
];
