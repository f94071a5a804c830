import assert from "node:assert/strict";
import { ServiceUnavailable } from "./errors.ts";
import { createBatcher } from "./batcher.ts";

Deno.test("batcher: items arriving while a batch is written go together in the next one", async () => {
  const batches: number[][] = [];
  const b = createBatcher<number, number>({
    write: async (items) => {
      batches.push(items);
      await new Promise((r) => setTimeout(r, 5));
      return items.map((i) => i * 2);
    },
    maxItems: 100,
  });
  const results = await Promise.all(Array.from({ length: 250 }, (_, i) => b.add(i)));
  assert.deepEqual(results, Array.from({ length: 250 }, (_, i) => i * 2));
  assert.deepEqual(batches.map((x) => x.length), [100, 100, 50]);
  assert.deepEqual(batches.flat(), Array.from({ length: 250 }, (_, i) => i));
  await b.close();
});

Deno.test("batcher: an Error outcome rejects only its own item", async () => {
  const b = createBatcher<number, string>({
    write: (items) => Promise.resolve(items.map((i) => i === 2 ? new RangeError("two") : `ok ${i}`)),
  });
  const results = await Promise.allSettled([1, 2, 3].map((i) => b.add(i)));
  assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
  await b.close();
});

Deno.test("batcher: a full queue refuses new items at once with 503", async () => {
  let release = () => {};
  const stuck = new Promise<void>((r) => release = r);
  const b = createBatcher<number, number>({
    write: async (items) => {
      await stuck;
      return items;
    },
    maxItems: 2,
    maxQueued: 3,
  });
  const first = [b.add(1), b.add(2)]; // written at once (a full batch), then stuck
  const queued = [b.add(3), b.add(4), b.add(5)];
  await assert.rejects(b.add(6), ServiceUnavailable);
  release();
  assert.deepEqual(await Promise.all([...first, ...queued]), [1, 2, 3, 4, 5]);
  await b.close();
  await assert.rejects(b.add(7), ServiceUnavailable);
});

Deno.test("batcher: with no wait, one turn's items go together and a later item gets its own batch", async () => {
  const batches: number[][] = [];
  const b = createBatcher<number, number>({
    write: (items) => {
      batches.push(items);
      return Promise.resolve(items);
    },
    maxWaitMs: 0,
    maxInFlight: 8,
  });
  const first = [b.add(1), b.add(2), b.add(3)]; // the same turn: one batch
  await Promise.all(first);
  await b.add(4); // a later turn: its own batch
  assert.deepEqual(batches, [[1, 2, 3], [4]]);
  await b.close();
});
