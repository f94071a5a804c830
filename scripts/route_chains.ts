// Which middleware runs in front of each endpoint, read from Hono's route table (`app.routes`): used by
// `deno task routes` and by the test that keeps each resource's middleware on its own routes.
import type { Hono } from "hono";

export interface RouteEntry {
  method: string;
  path: string;
  /** The function's name (middleware are named functions; handlers are "handler"). */
  name: string;
}

export interface EndpointChain {
  method: string;
  path: string;
  /** Middleware in front of the handler, in order, leaving out the app-wide ones named in `global`. */
  chain: string[];
}

// deno-lint-ignore no-explicit-any
export function routeEntries(app: Hono<any>): RouteEntry[] {
  return app.routes.map((r) => ({ method: r.method, path: r.path, name: r.handler.name || "handler" }));
}

/** Hono's path patterns as a regular expression: `*` any rest (or none), `:name` one segment. */
function matcher(pattern: string): RegExp {
  const body = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\/\*$/, "(?:/.*)?").replace(/\*/g, ".*")
    .replace(/:[A-Za-z_]+/g, "[^/]+");
  return new RegExp(`^${body}$`);
}

/** Every endpoint (a method and a path without `*`) with the middleware that runs before its handler. */
export function endpointChains(routes: RouteEntry[], global: Set<string>): EndpointChain[] {
  const seen = new Set<string>();
  const chains: EndpointChain[] = [];
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
    chains.push({ method: endpoint.method, path: endpoint.path, chain });
  });
  return chains;
}
