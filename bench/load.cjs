// Load generator for `deno task bench`, run by Node in its own process with autocannon (NODE_PATH points
// at the copy bench/main.ts installs). One JSON argument in, one JSON line out:
//   node bench/load.cjs '{"url":"http://127.0.0.1:8301/pt-br","connections":64,"duration":10}'
// With "visitors": N, every request carries X-Forwarded-For from a pool of N addresses, taken in turn, so
// the load looks like many visitors behind a trusting proxy (TRUST_PROXY=1) rather than one.
"use strict";
const autocannon = require("autocannon");

const spec = JSON.parse(process.argv[2]);
const headers = spec.headers || {};
let next = 0;
const address = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const request = { method: spec.method || "GET", path: new URL(spec.url).pathname, headers };
if (spec.body !== undefined) request.body = spec.body;
if (spec.visitors) {
  request.setupRequest = (req) => {
    const ip = address(1 + (next++ % spec.visitors));
    return { ...req, headers: { ...headers, "x-forwarded-for": ip } };
  };
}

autocannon({
  url: new URL(spec.url).origin,
  connections: spec.connections,
  duration: spec.duration,
  requests: [request],
  timeout: 10,
}, (error, result) => {
  if (error) {
    console.error(String(error));
    process.exit(1);
  }
  const codes = result.statusCodeStats || {};
  console.log(JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses: Object.fromEntries(Object.entries(codes).map(([code, s]) => [code, s.count])),
    duration: result.duration,
  }));
});
