import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { log, type LogLevel } from "../../core/log.ts";

export interface RequestLogOptions {
  /** Level of the line for a 2xx/3xx/4xx answer; default "info". 5xx answers are always "error". */
  level?: Exclude<LogLevel, "error">;
  /** Paths not logged (load-balancer probes would drown the log); default `/healthz` and `/readyz`. */
  skip?: string[];
  /** Clock in milliseconds; default `performance.now`. */
  clock?: () => number;
}

/**
 * One JSON line per request: time, request id, method, path, status and duration in ms. It logs the path
 * only — never the query string (UTM values, search terms and e-mails can travel there), the body, headers,
 * cookies or the client IP. Mounted first, so it also times and sees the status of requests answered by
 * the error handler. Sets the request id (from a well-formed `X-Request-Id`, else a new UUID).
 */
export function requestLog(options: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
  const level = options.level ?? "info";
  const skip = new Set(options.skip ?? ["/healthz", "/readyz"]);
  const clock = options.clock ?? (() => performance.now());
  return async function requestLogMiddleware(c, next) {
    c.set("requestId", c.req.header("x-request-id")?.match(/^[\w-]{1,64}$/)?.[0] ?? crypto.randomUUID());
    const started = clock();
    try {
      await next();
    } finally {
      const status = c.res.status;
      if (!skip.has(c.req.path) || status >= 500) {
        const fields = {
          requestId: c.get("requestId"),
          method: c.req.method,
          path: c.req.path,
          status,
          durationMs: Math.round((clock() - started) * 10) / 10,
        };
        if (status >= 500) log.error("request", fields);
        else log[level]("request", fields);
      }
    }
  };
}
