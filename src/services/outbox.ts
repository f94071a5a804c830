// What the two outboxes (Meta events, lead deliveries) share: the retry delay. (Their polling loop is a job:
// jobs.ts.)

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 60 * 60 * 1000;

/** Delay before retry number `attempt` (1-based): exponential with full jitter, capped at one hour. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * ceiling / 2);
}
