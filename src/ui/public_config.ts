import { createContext, useContext } from "react";
import type { PublicConfig } from "../shared/page_data.ts";

const NONE: PublicConfig = {
  metaPixelId: null,
  gtmId: null,
  consentMode: "opt-in",
  analyticsTimeZone: "America/Sao_Paulo", // the default of ANALYTICS_TZ (config.ts)
};

/** The public settings a page was rendered with, the same on the server and in the browser. */
export const PublicConfigContext = createContext<PublicConfig>(NONE);

export function usePublicConfig(): PublicConfig {
  return useContext(PublicConfigContext);
}
