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
import { health } from "./routes/health.ts";
import { pages } from "./routes/pages.tsx";
import { seo } from "./routes/seo.ts";
import { go } from "./routes/go.ts";
import { adminApi } from "./routes/api/admin.ts";
import { leadsApi } from "./routes/api/leads.ts";
import { trackingApi } from "./routes/api/tracking.ts";
import { panelExportsApi } from "./routes/api/panels.ts";
import { metaApi } from "./routes/api/meta.ts";
import { configApi } from "./routes/api/config.ts";
import { lgpdApi } from "./routes/api/lgpd.ts";
import { deliveriesApi } from "./routes/api/deliveries.ts";
import { systemApi } from "./routes/api/system.ts";
import { weeklyReportApi } from "./routes/api/weekly_report.ts";
import { whatsappApi } from "./routes/api/whatsapp.ts";

export interface AppOptions {
  /** Adds routes before the API sub-apps and the catch-alls (the bench's ceilings, bench/ceilings.ts). */
  extend?: (app: Hono<AppEnv>) => void;
}

/**
 * Builds the application. Order: request log (sets the request id), deps and the request's clock, the
 * security headers; for GET, compression and static files; whatever `extend` adds (the bench's
 * ceilings); one API sub-app per resource, mounted at its
 * prefix, each route naming its own middleware (server/middleware/: publicWrite, visitor, rateLimit,
 * adminOnly), so nothing of one resource runs in front of another's routes (`deno task routes` shows it);
 * pages (which own every remaining GET, including the 404 page). Every route module is a constant Hono app
 * that reads what it needs from the context.
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
    // The one clock reading of the request: every route, middleware and service call reads `c.var.now`.
    c.set("now", deps.now?.() ?? new Date());
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
  app.route("/", health);
  // API sub-apps are mounted here, before the catch-all below.
  app.route("/api/tracking", trackingApi);
  app.route("/api/tracking/export", panelExportsApi);
  app.route("/api/leads", leadsApi);
  app.route("/api/meta", metaApi);
  app.route("/api/config", configApi);
  app.route("/api/admin", adminApi);
  app.route("/api/admin/lgpd", lgpdApi);
  app.route("/api/admin", deliveriesApi);
  app.route("/api/admin", systemApi);
  app.route("/api/admin", weeklyReportApi);
  app.route("/api/whatsapp", whatsappApi);
  // An API path that exists under other methods answers 405 with Allow; any other path 404.
  app.all("/api/*", (c) => {
    const allow = allowedMethods(app, c.req.path);
    throw allow.length ? new MethodNotAllowed(allow) : new NotFound();
  });
  app.route("/", seo);
  app.route("/", go);
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
