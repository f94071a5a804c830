// The engagement beacon's bounds, shared by the browser that sends it (src/browser_logic/tracking.ts) and the schema
// that checks it (shared/schemas.ts): a small module of its own, so the public bundle takes no zod.

/** The longest visible time one beacon may carry: 6 hours, in ms (a tab left open all day is not read). */
export const MAX_ENGAGED_MS = 6 * 60 * 60 * 1000;
