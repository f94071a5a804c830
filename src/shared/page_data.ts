import type { Lang } from "./languages.ts";
import type { PageId } from "./routes.ts";

/**
 * What the server embeds in every public page for its bootstrap: no translations (islands carry the few
 * strings they need in their props).
 */
export interface PageData {
  lang: Lang;
  page: PageId;
  /** false on the not-found page: not a page view, no visit is recorded. */
  visit?: false;
  /** Public, non-secret settings the browser needs. */
  config: PublicConfig;
}

export interface PublicConfig {
  metaPixelId: string | null;
  gtmId: string | null;
  consentMode: "opt-in" | "none";
  /** ANALYTICS_TZ: the dashboard shows every date and computes "today" in it, whatever the browser's zone. */
  analyticsTimeZone: string;
  /** WhatsApp messages are configured: the lead form shows the consent box. */
  whatsappConsent?: boolean;
}

export const PAGE_DATA_ID = "page-data";

/** Serialises for a `<script type="application/json">`: `<` escaped so no input can close the tag. */
export function serializePageData(data: PageData): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(
    /\u2029/g,
    "\\u2029",
  );
}
