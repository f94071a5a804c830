import assert from "node:assert/strict";
import { deriveTouch, type TouchInput } from "./attribution.ts";
import type { Channel } from "../shared/channels.ts";
import type { ClickId } from "../shared/click_ids.ts";

const OWN = "zapflow.com.br";

// [referrer host, UTM "source/medium/campaign" (blank parts absent), click ids, source, medium, channel]
type Case = [string | null, string, ClickId[], string, string, Channel];

const CASES: Case[] = [
  // Direct
  [null, "", [], "direto", "(none)", "direct"],
  // Self-referrals are this site, never a source
  ["zapflow.com.br", "", [], "direto", "(none)", "direct"],
  ["www.zapflow.com.br", "", [], "direto", "(none)", "direct"],
  ["ZapFlow.com.br", "", [], "direto", "(none)", "direct"],
  ["zapflow.com.br", "google/cpc/brand", [], "google", "cpc", "paid_search"],
  // Organic search, any country domain, apps
  ["www.google.com", "", [], "google", "organic", "organic_search"],
  ["www.google.com.br", "", [], "google", "organic", "organic_search"],
  ["google.com.br", "", [], "google", "organic", "organic_search"],
  ["www.google.co.uk", "", [], "google", "organic", "organic_search"],
  ["www.google.de", "", [], "google", "organic", "organic_search"],
  ["com.google.android.googlequicksearchbox", "", [], "google", "organic", "organic_search"],
  ["www.bing.com", "", [], "bing", "organic", "organic_search"],
  ["cn.bing.com", "", [], "bing", "organic", "organic_search"],
  ["duckduckgo.com", "", [], "duckduckgo", "organic", "organic_search"],
  ["br.search.yahoo.com", "", [], "yahoo", "organic", "organic_search"],
  ["yandex.ru", "", [], "yandex", "organic", "organic_search"],
  ["www.ecosia.org", "", [], "ecosia", "organic", "organic_search"],
  ["search.brave.com", "", [], "brave", "organic", "organic_search"],
  ["www.baidu.com", "", [], "baidu", "organic", "organic_search"],
  // Google properties that are not the search engine
  ["docs.google.com", "", [], "docs.google.com", "referral", "referral"],
  ["mail.google.com", "", [], "gmail", "email", "email"],
  ["gemini.google.com", "", [], "gemini", "referral", "ai"],
  // Social networks, their link shims and apps
  ["l.instagram.com", "", [], "instagram", "referral", "organic_social"],
  ["www.instagram.com", "", [], "instagram", "referral", "organic_social"],
  ["com.instagram.android", "", [], "instagram", "referral", "organic_social"],
  ["lm.facebook.com", "", [], "facebook", "referral", "organic_social"],
  ["l.facebook.com", "", [], "facebook", "referral", "organic_social"],
  ["m.facebook.com", "", [], "facebook", "referral", "organic_social"],
  ["web.facebook.com", "", [], "facebook", "referral", "organic_social"],
  ["com.facebook.katana", "", [], "facebook", "referral", "organic_social"],
  ["t.co", "", [], "x", "referral", "organic_social"],
  ["x.com", "", [], "x", "referral", "organic_social"],
  ["com.twitter.android", "", [], "x", "referral", "organic_social"],
  ["www.linkedin.com", "", [], "linkedin", "referral", "organic_social"],
  ["lnkd.in", "", [], "linkedin", "referral", "organic_social"],
  ["com.linkedin.android", "", [], "linkedin", "referral", "organic_social"],
  ["web.whatsapp.com", "", [], "whatsapp", "referral", "organic_social"],
  ["com.whatsapp", "", [], "whatsapp", "referral", "organic_social"],
  ["www.tiktok.com", "", [], "tiktok", "referral", "organic_social"],
  ["t.me", "", [], "telegram", "referral", "organic_social"],
  ["org.telegram.messenger", "", [], "telegram", "referral", "organic_social"],
  ["br.pinterest.com", "", [], "pinterest", "referral", "organic_social"],
  ["out.reddit.com", "", [], "reddit", "referral", "organic_social"],
  ["www.threads.net", "", [], "threads", "referral", "organic_social"],
  // Video
  ["www.youtube.com", "", [], "youtube", "referral", "organic_video"],
  ["m.youtube.com", "", [], "youtube", "referral", "organic_video"],
  ["youtu.be", "", [], "youtube", "referral", "organic_video"],
  ["com.google.android.youtube", "", [], "youtube", "referral", "organic_video"],
  // Mail
  ["com.google.android.gm", "", [], "gmail", "email", "email"],
  ["outlook.live.com", "", [], "outlook", "email", "email"],
  ["com.microsoft.office.outlook", "", [], "outlook", "email", "email"],
  // AI assistants
  ["chatgpt.com", "", [], "chatgpt", "referral", "ai"],
  ["chat.openai.com", "", [], "chatgpt", "referral", "ai"],
  ["www.perplexity.ai", "", [], "perplexity", "referral", "ai"],
  ["claude.ai", "", [], "claude", "referral", "ai"],
  ["copilot.microsoft.com", "", [], "copilot", "referral", "ai"],
  // Other sites: the host itself, as a referral
  ["blog.parceiro.com.br", "", [], "blog.parceiro.com.br", "referral", "referral"],
  ["www.exame.com", "", [], "exame.com", "referral", "referral"],
  ["news.ycombinator.com", "", [], "news.ycombinator.com", "referral", "referral"],
  ["192.168.0.10", "", [], "192.168.0.10", "referral", "referral"],
  // UTM overrides the referrer
  ["l.instagram.com", "newsletter/email/novembro", [], "newsletter", "email", "email"],
  ["www.google.com", "google/cpc/marca", [], "google", "cpc", "paid_search"],
  ["l.facebook.com", "facebook/paid_social/black-friday", [], "facebook", "paid_social", "paid_social"],
  ["lm.facebook.com", "ig/cpc/stories", [], "ig", "cpc", "paid_social"],
  [null, "Instagram/social/bio", [], "Instagram", "social", "organic_social"],
  [null, "parceiro/referral", [], "parceiro", "referral", "referral"],
  [null, "rd/email/nutricao", [], "rd", "email", "email"],
  [null, "newsletter", [], "newsletter", "(not set)", "unassigned"],
  [null, "mailchimp/e-mail", [], "mailchimp", "e-mail", "email"],
  [null, "afiliado-joao/affiliate", [], "afiliado-joao", "affiliate", "affiliates"],
  [null, "sms/sms", [], "sms", "sms", "sms"],
  [null, "dv360/display", [], "dv360", "display", "display"],
  [null, "criteo/retargeting", [], "criteo", "retargeting", "paid_other"],
  [null, "youtube/cpv", [], "youtube", "cpv", "paid_video"],
  [null, "youtube/video", [], "youtube", "video", "organic_video"],
  [null, "bing/organic", [], "bing", "organic", "organic_search"],
  [null, "google/cpc/cross-network-pmax", [], "google", "cpc", "paid_other"],
  [null, "chatgpt.com/referral", [], "chatgpt.com", "referral", "ai"],
  // Click ids without UTM: an ad click is paid
  [null, "", ["gclid"], "google", "cpc", "paid_search"],
  ["www.google.com.br", "", ["gclid"], "google", "cpc", "paid_search"],
  ["www.google.com", "", ["gbraid"], "google", "cpc", "paid_search"],
  [null, "", ["wbraid"], "google", "cpc", "paid_search"],
  ["www.bing.com", "", ["msclkid"], "bing", "cpc", "paid_search"],
  [null, "", ["ttclid"], "tiktok", "paid", "paid_social"],
  ["www.youtube.com", "", ["gclid"], "google", "cpc", "paid_search"],
  // fbclid rides on every link out of Facebook and Instagram, paid or not: not a paid signal
  ["l.instagram.com", "", ["fbclid"], "instagram", "referral", "organic_social"],
  ["lm.facebook.com", "", ["fbclid"], "facebook", "referral", "organic_social"],
  [null, "", ["fbclid"], "direto", "(none)", "direct"],
  // UTM with a click id: the UTM source stays, an ad click fills a missing medium
  [null, "facebook/paid", ["fbclid"], "facebook", "paid", "paid_social"],
  [null, "google", ["gclid"], "google", "cpc", "paid_search"],
  ["l.instagram.com", "instagram/social", ["fbclid"], "instagram", "social", "organic_social"],
];

function input(referrer: string | null, utm: string, clickIds: ClickId[]): TouchInput {
  const [source, medium, campaign] = utm ? utm.split("/") : [];
  return {
    referrer,
    utmSource: source || null,
    utmMedium: medium || null,
    utmCampaign: campaign || null,
    clickIds,
  };
}

Deno.test(`attribution: source, medium and channel of ${CASES.length} real-world arrivals`, () => {
  assert.ok(CASES.length >= 60);
  const wrong: string[] = [];
  for (const [referrer, utm, ids, source, medium, channel] of CASES) {
    const got = deriveTouch(input(referrer, utm, ids), OWN);
    const want = { source, medium, channel };
    const have = { source: got.source, medium: got.medium, channel: got.channel };
    if (JSON.stringify(have) !== JSON.stringify(want)) {
      wrong.push(`${referrer ?? "-"} ${utm || "-"} ${ids.join(",") || "-"}: ${JSON.stringify(have)}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("attribution: keeps the referrer host (without www.), never this site's", () => {
  assert.equal(deriveTouch(input("www.exame.com", "", []), OWN).referrer, "exame.com");
  assert.equal(deriveTouch(input("www.zapflow.com.br", "", []), OWN).referrer, null);
  assert.equal(deriveTouch(input(null, "google/cpc/x", []), OWN).campaign, "x");
});
