// Timing rules a lead shares between the browser outbox and the server.

/** How long the browser keeps a lead it could not send; older ones are dropped unsent. */
export const LEAD_OUTBOX_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** How far ahead of the server's clock a browser's submission time may be and still count (clock skew). */
export const SUBMITTED_AT_MAX_SKEW_MS = 5 * 60 * 1000;
