// The visit's origin as the checkout receives it (isomorphic: the lead dialog in the browser and the
// /go/checkout redirect on the server both build the checkout URL with it). The checkout host does its own
// attribution, so it gets the whole origin the landing URL had: the five UTM parameters and the ad click ids
// (their values here, since they travel only in the address the visitor follows, never to our database).
import { CLICK_IDS } from "./click_ids.ts";

export const ORIGIN_UTM = ["utm_source", "utm_campaign", "utm_medium", "utm_content", "utm_term"] as const;
/** Every query parameter passed on to the checkout, in the order they are appended. */
export const ORIGIN_PARAMS = [...ORIGIN_UTM, ...CLICK_IDS] as const;
export type OriginParam = typeof ORIGIN_PARAMS[number];
export type CheckoutOrigin = Partial<Record<OriginParam, string>>;

/** Longest value kept for one parameter (a Google click id is about 100 characters, Meta's about 60). */
export const ORIGIN_VALUE_MAX = 500;

/** The origin parameters a query string carries (trimmed, non-empty, at most ORIGIN_VALUE_MAX long). */
export function originOf(search: string | URLSearchParams): CheckoutOrigin {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const origin: CheckoutOrigin = {};
  for (const name of ORIGIN_PARAMS) {
    const value = params.get(name)?.trim();
    if (value && value.length <= ORIGIN_VALUE_MAX) origin[name] = value;
  }
  return origin;
}

/** The checkout link with the origin's parameters set on it; an invalid URL gives back the link unchanged. */
export function withOrigin(link: string, origin: CheckoutOrigin): string {
  try {
    const url = new URL(link);
    for (const name of ORIGIN_PARAMS) if (origin[name]) url.searchParams.set(name, origin[name]!);
    return url.toString();
  } catch {
    return link;
  }
}
