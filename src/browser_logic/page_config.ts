import { PAGE_DATA_ID, type PublicConfig } from "../shared/page_data.ts";

const NONE: PublicConfig = {
  metaPixelId: null,
  gtmId: null,
  consentMode: "opt-in",
  analyticsTimeZone: "America/Sao_Paulo",
};

/** The public settings the server embedded in the page (browser only). */
export function pageConfig(): PublicConfig {
  try {
    const data = JSON.parse(document.getElementById(PAGE_DATA_ID)?.textContent ?? "{}");
    return { ...NONE, ...data.config };
  } catch {
    return NONE;
  }
}
