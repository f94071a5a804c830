// `deno task routes`: the app's route table (method, path, handler name) in registration order, then, per
// endpoint, the chain that runs in front of its handler — so anyone can see which middleware guards which
// endpoint and that none leaks onto another resource's routes. Built over an empty embedded database.
import { testApp } from "../testing/app.ts";
import { endpointChains, routeEntries } from "./route_chains.ts";

const { app, db } = await testApp("pglite");
const routes = routeEntries(app);
const width = Math.max(...routes.map((r) => r.path.length));

console.log("# app.routes");
for (const r of routes) console.log(`${r.method.padEnd(6)} ${r.path.padEnd(width)}  ${r.name}`);

console.log("\n# what runs before each endpoint (global request log, deps and headers left out)");
const global = new Set(["requestLogMiddleware", "injectDeps", "securityHeadersMiddleware"]);
for (const { method, path, chain } of endpointChains(routes, global)) {
  console.log(`${`${method} ${path}`.padEnd(width + 7)}  ${chain.join(" -> ") || "-"}`);
}
await db.close();
