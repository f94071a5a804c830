// `deno task routes`: the app's route table (method, path, handler name) in registration order, then, per
// endpoint, the chain that runs in front of its handler — so anyone can see which middleware guards which
// endpoint and that none leaks onto another resource's routes. Built over an empty embedded database.
import { testApp } from "../testing/app.ts";

const { app, db } = await testApp("pglite");
const routes = app.routes.map((r) => ({ method: r.method, path: r.path, name: r.handler.name || "handler" }));
const width = Math.max(...routes.map((r) => r.path.length));

console.log("# app.routes");
for (const r of routes) console.log(`${r.method.padEnd(6)} ${r.path.padEnd(width)}  ${r.name}`);

/** Hono's path patterns as a regular expression: `*` any rest (or none), `:name` one segment. */
function matcher(pattern: string): RegExp {
  const body = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\/\*$/, "(?:/.*)?").replace(/\*/g, ".*")
    .replace(/:[A-Za-z_]+/g, "[^/]+");
  return new RegExp(`^${body}$`);
}

console.log("\n# what runs before each endpoint (global request log, deps and headers left out)");
const global = new Set(["requestLogMiddleware", "injectDeps", "securityHeadersMiddleware"]);
const seen = new Set<string>();
routes.forEach((endpoint, index) => {
  const key = `${endpoint.method} ${endpoint.path}`;
  if (endpoint.method === "ALL" || seen.has(key) || endpoint.path.endsWith("*")) return;
  // The endpoint's handler is its last registration for this method and path.
  const last = routes.findLastIndex((r) => r.method === endpoint.method && r.path === endpoint.path);
  seen.add(key);
  const chain = routes.slice(0, last).filter((r, i) =>
    !global.has(r.name) && (r.method === "ALL" || r.method === endpoint.method) &&
    (r.path === endpoint.path
      ? i >= index || r.method === "ALL"
      : r.path.includes("*") && matcher(r.path).test(endpoint.path))
  ).map((r) => r.name);
  console.log(`${key.padEnd(width + 7)}  ${chain.join(" -> ") || "-"}`);
});
await db.close();
