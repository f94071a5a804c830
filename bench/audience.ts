// What the audience categories cost a page view on the main thread (docs/AUDIENCE.md): the user agent's
// categories (parsed, then from the cache a handful of browsers fill) and the country lookup in the IP
// database, in µs per visit. Prints numbers only.
//   deno run -A bench/audience.ts [--json]
import { USER_AGENTS } from "../src/services/user_agent_test.ts";
import { userAgentInfo } from "../src/services/user_agent.ts";
import { geoDbFor } from "../src/services/geoip.ts";
import { audienceOf } from "../src/services/audience.ts";

const N = 200_000;
const ADDRESSES = Array.from(
  { length: 4096 },
  (_, i) =>
    `${[177, 179, 186, 187, 189, 191, 200, 201][i % 8]}.${(i * 7) % 256}.${(i * 13) % 256}.${i % 250 + 1}`,
);

function perCall(label: string, fn: (i: number) => unknown, n = N): [string, number] {
  for (let i = 0; i < 5_000; i++) fn(i); // warm up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return [label, ((performance.now() - t0) * 1000) / n];
}

const started = performance.now();
const geo = geoDbFor(undefined);
const loadMs = performance.now() - started;
let fresh = 0;
const rows = [
  perCall(
    "user agent, first sight (parsed)",
    () => userAgentInfo(`${USER_AGENTS[fresh % 30][0]} x${fresh++}`),
    20_000,
  ),
  perCall("user agent, seen before (cache)", (i) => userAgentInfo(USER_AGENTS[i % 30][0])),
  perCall("country lookup, new address", (i) => geo.lookup(ADDRESSES[i % ADDRESSES.length])),
  perCall("country lookup, address seen before", (i) => geo.lookup(ADDRESSES[i % 500])),
  perCall(
    "whole audienceOf, cached user agent",
    (i) =>
      audienceOf(
        { header: (h) => h === "user-agent" ? USER_AGENTS[i % 30][0] : undefined },
        ADDRESSES[i % ADDRESSES.length],
        {
          COUNTRY_HEADER: "cf-ipcountry",
        },
      ),
  ),
];
const mem = Deno.memoryUsage();
if (Deno.args.includes("--json")) {
  console.log(JSON.stringify({ loadMs, perVisitUs: Object.fromEntries(rows), rss: mem.rss }));
} else {
  console.log(`database: ${geo.path} loaded in ${loadMs.toFixed(1)} ms`);
  for (const [label, us] of rows) console.log(`${label.padEnd(40)} ${us.toFixed(2)} µs per visit`);
  console.log(
    `process RSS ${(mem.rss / 1048576).toFixed(1)} MB, heap used ${(mem.heapUsed / 1048576).toFixed(1)} MB`,
  );
}
