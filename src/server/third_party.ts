import type { Config } from "../config.ts";
import type { SecurityHeadersOptions } from "./middleware/headers.ts";

/**
 * CSP sources the Meta pixel and the tag manager need, only for the ones configured, plus the site owner's
 * `CSP_EXTRA_SOURCES` (hosts the tags added in the tag manager load from).
 */
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
  const extra = config.CSP_EXTRA_SOURCES;
  const frame: string[] = [];
  if (extra) {
    script.push(...extra.script);
    connect.push(...extra.connect);
    img.push(...extra.img);
    frame.push(...extra.frame);
  }
  return { script, connect, img, frame };
}
