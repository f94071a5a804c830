import { ServiceUnavailable } from "./errors.ts";

export interface BatcherOptions<T, R> {
  /**
   * Writes one batch (in one transaction) and returns one outcome per item, in order: a value to resolve
   * the item's promise with, or an Error to reject it with. Throwing rejects every item of the batch.
   */
  write(items: T[]): Promise<(R | Error)[]>;
  /** Largest batch; a full queue is written at once. */
  maxItems?: number;
  /** How long the first item of a batch waits for company, in ms; 0: until this turn's I/O is handled. */
  maxWaitMs?: number;
  /** Batches written at the same time (a pool's connections); default 1. */
  maxInFlight?: number;
  /**
   * Items allowed to wait; beyond it `add` refuses at once with ServiceUnavailable, so a database that stops
   * answering makes fast 503s instead of a growing queue. Default 10,000.
   */
  maxQueued?: number;
  /** Called with the error of a failed batch (for the log). */
  onError?(error: unknown, items: number): void;
}

export interface Batcher<T, R> {
  /** Queues one item; resolves once its batch is committed, rejects when the batch failed or the queue is full. */
  add(item: T): Promise<R>;
  /** Writes whatever is queued and waits for every batch in flight. */
  flush(): Promise<void>;
  /** Refuses new items (ServiceUnavailable), then flushes. */
  close(): Promise<void>;
}

interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/** Runs `fn` after `ms`; with 0, on the next turn of the event loop (a 0 ms timer waits 1 ms). */
function schedule(fn: () => void, ms: number): { cancel(): void } {
  if (ms > 0) {
    const id = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(id) };
  }
  const id = setImmediate(fn);
  return { cancel: () => clearImmediate(id) };
}

/**
 * Group commit: items queue while batches are being written and go together in the next one, so the number
 * of writes follows the database's speed, not the request rate. A failed batch rejects each of its items with
 * ServiceUnavailable (503) and stores none of them.
 */
export function createBatcher<T, R>(options: BatcherOptions<T, R>): Batcher<T, R> {
  const maxItems = options.maxItems ?? 500;
  const maxWaitMs = options.maxWaitMs ?? 2;
  const maxInFlight = options.maxInFlight ?? 1;
  const maxQueued = options.maxQueued ?? 10_000;
  let queue: Pending<T, R>[] = [];
  const inFlight = new Set<Promise<void>>();
  // A pending start: a timer for maxWaitMs > 0; with 0, an immediate (the next turn of the event loop, once
  // the requests whose I/O completed in this turn have queued their items: a timer of 0 would wait 1 ms).
  let timer: { cancel(): void } | undefined;
  let closed = false;

  async function writeBatch(batch: Pending<T, R>[]): Promise<void> {
    let outcomes: (R | Error)[];
    try {
      outcomes = await options.write(batch.map((p) => p.item));
      if (outcomes.length !== batch.length) {
        throw new Error("batch writer returned the wrong number of outcomes");
      }
    } catch (error) {
      options.onError?.(error, batch.length);
      const refusal = new ServiceUnavailable();
      for (const p of batch) p.reject(refusal);
      return;
    }
    outcomes.forEach((outcome, i) => {
      if (outcome instanceof Error) batch[i].reject(outcome);
      else batch[i].resolve(outcome);
    });
  }

  /** Starts batches while there is room; what cannot start now starts when a batch finishes. */
  function pump(): void {
    timer?.cancel();
    timer = undefined;
    while (queue.length && inFlight.size < maxInFlight) {
      const batch = queue.slice(0, maxItems);
      queue = queue.slice(batch.length);
      const done: Promise<void> = writeBatch(batch).finally(() => {
        inFlight.delete(done);
        pump(); // whatever queued meanwhile has already waited a whole batch: write it now
      });
      inFlight.add(done);
    }
  }

  return {
    add(item) {
      if (closed || queue.length >= maxQueued) return Promise.reject(new ServiceUnavailable());
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length >= maxItems) pump();
        else if (timer === undefined) timer = schedule(pump, maxWaitMs);
      });
    },
    async flush() {
      pump();
      while (inFlight.size) {
        await Promise.all(inFlight);
        pump();
      }
    },
    async close() {
      closed = true;
      await this.flush();
    },
  };
}
