import type { Config } from "../config.ts";
import type { SecurityHeadersOptions } from "./middleware/headers.ts";

/** CSP sources the Meta pixel and the tag manager need, only for the ones configured. */
export function thirdPartySources(config: Config): NonNullable<SecurityHeadersOptions["extraSources"]> {
  const script: string[] = [];
  const connect: string[] = [];
  const img: string[] = [];
  if (config.META_PIXEL_ID) {
    script.push("https://connect.facebook.net");
    connect.push("https://connect.facebook.net", "https://www.facebook.com");
  }
  if (config.GTM_ID) {
    script.push("https://www.googletagmanager.com");
    connect.push(
      "https://www.googletagmanager.com",
      "https://www.google-analytics.com",
      "https://*.google-analytics.com",
      "https://*.analytics.google.com",
    );
    img.push("https://www.googletagmanager.com", "https://www.google-analytics.com");
  }
  return { script, connect, img };
}
