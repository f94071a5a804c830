// Where a visit came from: source, medium and channel of a touch, from its UTM parameters, the referring host
// and the click ids on its landing URL, following GA4's default channel group rules (in GA4's order), with
// one channel GA4 lacks: "ai" for AI assistants. Stored when the event is written, so the roll-ups group by it.
import type { Channel } from "../shared/channels.ts";
import type { ClickId } from "../shared/click_ids.ts";
import { KNOWN_SOURCES, type KnownSource, type SourceCategory } from "./traffic_sources.ts";

export interface TouchInput {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  /** The referring site's host name (never a path), as the browser reported it. */
  referrer: string | null;
  /** The click ids present on the landing URL. */
  clickIds: readonly ClickId[];
}

export interface Touch {
  source: string;
  medium: string;
  campaign: string | null;
  channel: Channel;
  /** The referring host kept with the event: null when none, or when it was this site. */
  referrer: string | null;
}

/** The source name of a visit without UTM source, referrer or paid click id. */
export const DIRECT_SOURCE = "direto";

const byHost = new Map<string, KnownSource>();
const byName = new Map<string, KnownSource>();
const countryDomains: [RegExp, KnownSource][] = [];
for (const source of KNOWN_SOURCES) {
  for (const host of source.hosts) byHost.set(host, source);
  for (const name of [source.name, ...(source.aliases ?? [])]) byName.set(name, source);
  for (const label of source.countryDomains ?? []) {
    countryDomains.push([new RegExp(`^(?:www\\.|m\\.)?${label}\\.(?:com?\\.)?[a-z]{2,3}$`), source]);
  }
}

/** The known source a host refers as: itself or a parent domain listed, else a country domain. */
export function knownHost(host: string): KnownSource | null {
  const labels = host.split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const hit = byHost.get(labels.slice(i).join("."));
    if (hit) return hit;
  }
  return countryDomains.find(([pattern]) => pattern.test(host))?.[1] ?? null;
}

/** The kind of a source name (a UTM source such as "ig", "Google" or "facebook.com", or a derived name). */
function categoryOf(source: string): SourceCategory | null {
  const name = source.trim().toLowerCase();
  return (byName.get(name) ?? knownHost(name))?.category ?? null;
}

function bareHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "").replace(/^www\./, "");
}

// Click ids that only an ad click puts on a URL. fbclid is not one: Facebook and Instagram add it to every
// outbound link, organic posts and bios included, so it proves a click from Meta, not a paid one.
const PAID_CLICKS: [ClickId, string, string][] = [
  ["gclid", "google", "cpc"],
  ["gbraid", "google", "cpc"],
  ["wbraid", "google", "cpc"],
  ["msclkid", "bing", "cpc"],
  ["ttclid", "tiktok", "paid"],
];

const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/;
const DISPLAY_MEDIUMS = ["display", "banner", "expandable", "interstitial", "cpm"];
const SOCIAL_MEDIUMS = ["social", "social-network", "social-media", "sm", "social network", "social media"];
const EMAIL_WORDS = ["email", "e-mail", "e_mail", "e mail"];

/** GA4's default channel group rules, in GA4's order, over a source, medium and campaign. */
export function channelOf(source: string, medium: string, campaign: string | null): Channel {
  const s = source.trim().toLowerCase();
  const m = medium.trim().toLowerCase();
  const category = categoryOf(s);
  const paid = PAID_MEDIUM.test(m);
  if (s === DIRECT_SOURCE && (m === "(none)" || m === "(not set)")) return "direct";
  if (campaign?.toLowerCase().includes("cross-network")) return "paid_other";
  if (paid && category === "search") return "paid_search";
  if (paid && category === "social") return "paid_social";
  if (paid && category === "video") return "paid_video";
  if (DISPLAY_MEDIUMS.includes(m)) return "display";
  if (paid) return "paid_other";
  if (category === "ai") return "ai";
  if (category === "social" || SOCIAL_MEDIUMS.includes(m)) return "organic_social";
  if (category === "video" || m.includes("video")) return "organic_video";
  if (category === "search" || m === "organic") return "organic_search";
  if (m === "referral" || m === "app" || m === "link") return "referral";
  if (category === "email" || EMAIL_WORDS.includes(s) || EMAIL_WORDS.includes(m)) return "email";
  if (m === "affiliate") return "affiliates";
  if (s === "sms" || m === "sms") return "sms";
  return "unassigned";
}

const REFERRER_MEDIUM: Record<SourceCategory, string> = {
  search: "organic",
  social: "referral",
  video: "referral",
  email: "email",
  ai: "referral",
};

/**
 * The touch of a visit: source is the UTM source when there is one, else the ad network of a paid click id,
 * else the referrer's known name or its host, else "direto"; medium likewise (GA4's "organic" for a search
 * engine, "referral" for other sites, "(none)" for direct). A referrer on `ownHost` is this site: ignored.
 */
export function deriveTouch(input: TouchInput, ownHost: string): Touch {
  let referrer = input.referrer ? bareHost(input.referrer) : null;
  if (referrer === bareHost(ownHost)) referrer = null;
  const known = referrer ? knownHost(referrer) : null;
  const paidClick = PAID_CLICKS.find(([id]) => input.clickIds.includes(id));
  const source = input.utmSource ?? paidClick?.[1] ?? known?.name ?? referrer ?? DIRECT_SOURCE;
  const medium = input.utmMedium ??
    (paidClick
      ? paidClick[2]
      : input.utmSource
      ? "(not set)"
      : known
      ? REFERRER_MEDIUM[known.category]
      : referrer
      ? "referral"
      : "(none)");
  const campaign = input.utmCampaign;
  return { source, medium, campaign, channel: channelOf(source, medium, campaign), referrer };
}
