// What the two outboxes (Meta events, lead deliveries) share: the retry delay and the background loop that
// polls the database for due rows in every instance.
import { log } from "../core/log.ts";

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 60 * 60 * 1000;

/** Delay before retry number `attempt` (1-based): exponential with full jitter, capped at one hour. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * ceiling / 2);
}

export interface Poller {
  /** Stops polling and waits for a run in progress to finish (so it records its outcome). */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs` (measured from the end of the previous run, so runs never overlap) until
 * stopped. A run that throws is logged under `name` and the loop goes on.
 */
export function startPoller(name: string, work: () => Promise<unknown>, intervalMs: number): Poller {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = work()
      .then(() => {}, (error) => log.error(`${name} error`, { error: String(error?.message ?? error) }))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
