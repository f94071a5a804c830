// The dashboard's query client is where an ended session is noticed: any query or mutation that fails with
// SessionEnded (a 401 from a call that needs a session) calls the handler; other failures do not.
import assert from "node:assert/strict";
import { MutationObserver } from "@tanstack/react-query";
import { createQueryClient } from "./AdminApp.tsx";
import { ApiError, SessionEnded } from "./api.ts";

Deno.test("query client: a query or a mutation that meets an ended session calls the handler, once each", async () => {
  let ended = 0;
  const client = createQueryClient(() => ended++);
  const fail = (error: Error) => () => Promise.reject(error);

  await client.fetchQuery({ queryKey: ["a"], queryFn: fail(new SessionEnded(401, "Unauthorized", null)) })
    .catch(() => {});
  assert.equal(ended, 1);

  const observer = new MutationObserver(client, { mutationFn: fail(new SessionEnded(401, "", null)) });
  await observer.mutate().catch(() => {});
  assert.equal(ended, 2);

  // Other failures are the card's or the form's own to show.
  await client.fetchQuery({ queryKey: ["b"], queryFn: fail(new ApiError(500, "boom", null)) }).catch(
    () => {},
  );
  await new MutationObserver(client, { mutationFn: fail(new ApiError(401, "login refused", null)) }).mutate()
    .catch(() => {});
  await client.fetchQuery({ queryKey: ["c"], queryFn: fail(new Error("network")) }).catch(() => {});
  assert.equal(ended, 2);
  client.clear();
});

Deno.test("query client: reads never go stale, never retry; writes never retry", () => {
  const defaults = createQueryClient().getDefaultOptions();
  assert.equal(defaults.queries?.staleTime, Infinity);
  assert.equal(defaults.queries?.retry, false);
  assert.equal(defaults.queries?.refetchOnWindowFocus, false);
  assert.equal(defaults.mutations?.retry, false);
});
