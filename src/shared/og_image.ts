import type { Lang } from "./languages.ts";

/** Path of the share image (Open Graph / Twitter card) of a language, written by scripts/og_image.ts. */
export function ogImagePath(lang: Lang): string {
  return `/og-image-${lang}.jpg`;
}
