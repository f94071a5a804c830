import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { HttpError, MethodNotAllowed, RateLimited } from "./errors.ts";
import type { AppEnv } from "./env.ts";
import { log } from "./log.ts";

/** Maps any thrown error to a response. 5xx bodies never carry internals; they are logged instead. */
export function errorHandler(error: Error, c: Context<AppEnv>): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (error instanceof HttpError) {
    if (error instanceof RateLimited) headers["retry-after"] = String(error.retryAfterSeconds);
    if (error instanceof MethodNotAllowed) headers["allow"] = error.allow.join(", ");
    return c.json(error.body ?? { error: error.message }, error.status as 400, headers);
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    return c.json({ error: status === 413 ? "payload_too_large" : "bad_request" }, status, headers);
  }
  log.error("unhandled error", {
    requestId: c.get("requestId"),
    method: c.req.method,
    path: c.req.path,
    error: error.message,
    stack: error.stack,
  });
  return c.json({ error: "internal", requestId: c.get("requestId") }, 500, headers);
}
