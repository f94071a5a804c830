// The ad click ids a landing URL may carry (isomorphic, and small: the public pages' bootstrap imports it).

/** Only their presence is sent and stored, never their values. */
export const CLICK_IDS = ["gclid", "gbraid", "wbraid", "fbclid", "msclkid", "ttclid"] as const;
export type ClickId = typeof CLICK_IDS[number];
