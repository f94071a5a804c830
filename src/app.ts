import { Hono } from "hono";
import { compress } from "hono/compress";
import type { AppDeps, AppEnv } from "./server/env.ts";
import { errorHandler } from "./server/error_handler.ts";
import { securityHeaders } from "./server/middleware/headers.ts";
import { requestLog } from "./server/middleware/request_log.ts";
import { thirdPartySources } from "./server/third_party.ts";
import { serveStatic } from "./server/static.ts";
import { MethodNotAllowed, NotFound } from "./core/errors.ts";
import { VisitorKeys } from "./services/visitor_key.ts";
import { healthRoutes } from "./routes/health.ts";
import { pages } from "./routes/pages.tsx";
import { seo } from "./routes/seo.ts";
import { adminApi } from "./routes/api/admin.ts";
import { leadsApi } from "./routes/api/leads.ts";
import { trackingApi } from "./routes/api/tracking.ts";
import { metaApi } from "./routes/api/meta.ts";
import { dashboardApi } from "./routes/api/dashboard.ts";
import { lgpdApi } from "./routes/api/lgpd.ts";
import { deliveriesApi } from "./routes/api/deliveries.ts";

export interface AppOptions {
  /** Adds routes before the API sub-apps and the catch-alls (the bench's ceilings, bench/ceilings.ts). */
  extend?: (app: Hono<AppEnv>) => void;
}

/**
 * Builds the application. Order: request log (sets the request id), nonce and security headers; for GET,
 * compression and static files; whatever `extend` adds; API sub-apps; pages (which own every remaining GET,
 * including the 404 page).
 */
export async function createApp(deps: AppDeps, options: AppOptions = {}): Promise<Hono<AppEnv>> {
  const app = new Hono<AppEnv>();
  app.use("*", requestLog());
  const runtime = {
    ...deps,
    visitorKeys: deps.visitorKeys ?? new VisitorKeys(deps.db, deps.config.ANALYTICS_TZ),
  };
  app.use("*", function injectDeps(c, next) {
    c.set("deps", runtime);
    return next();
  });
  app.use(
    "*",
    securityHeaders({
      publicOrigin: deps.config.PUBLIC_ORIGIN,
      extraSources: thirdPartySources(deps.config),
    }),
  );
  // Only GET (and HEAD, which Hono routes as GET) answers can be static files or large enough to compress;
  // POST answers (tracking, leads, login) are small, so they skip both layers.
  app.get("*", compress());
  app.get("*", await serveStatic());

  options.extend?.(app);
  app.route("/", healthRoutes());
  // API sub-apps are mounted here, before the catch-all below.
  app.route("/api/admin", adminApi);
  app.route("/", leadsApi(deps.config.PUBLIC_ORIGIN));
  app.route("/", trackingApi(deps.config.PUBLIC_ORIGIN));
  app.route("/", metaApi(deps.config.PUBLIC_ORIGIN));
  app.route("/", dashboardApi);
  app.route("/", lgpdApi);
  app.route("/", deliveriesApi);
  // An API path that exists under other methods answers 405 with Allow; any other path 404.
  app.all("/api/*", (c) => {
    const allow = allowedMethods(app, c.req.path);
    throw allow.length ? new MethodNotAllowed(allow) : new NotFound();
  });
  app.route("/", seo);
  app.route("/", pages);

  app.onError(errorHandler);
  app.notFound((c) =>
    c.json({ error: "method_not_allowed", allow: ["GET", "HEAD"] }, 405, {
      allow: "GET, HEAD",
      "cache-control": "no-store",
    })
  );
  return app;
}

/** Methods with a handler (not middleware) for exactly this path; GET brings HEAD. */
function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  const methods = new Set(
    app.routes.filter((r) => r.method !== "ALL" && r.path === path).map((r) => r.method.toUpperCase()),
  );
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
