import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { DatabaseUnavailable } from "../db/client.ts";
import {
  ClientAborted,
  HttpError,
  MethodNotAllowed,
  RateLimited,
  ServiceUnavailable,
} from "../core/errors.ts";
import type { AppEnv } from "./env.ts";
import { log } from "../core/log.ts";

/** Seconds a client is asked to wait when the database is out of reach. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
const UNAVAILABLE_LOG_EVERY_MS = 5_000;
let lastUnavailableLog = 0;

/** Maps any thrown error to a response. 5xx bodies never carry internals; they are logged instead. */
export function errorHandler(error: Error, c: Context<AppEnv>): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (error instanceof DatabaseUnavailable) {
    // An outage fails every request at once: one warning every few seconds tells the story without the flood.
    const now = Date.now();
    if (now - lastUnavailableLog > UNAVAILABLE_LOG_EVERY_MS) {
      lastUnavailableLog = now;
      log.warn("database unavailable: answering 503", { error: error.message });
    }
    headers["retry-after"] = String(UNAVAILABLE_RETRY_AFTER_S);
    return c.json({ error: "database_unavailable" }, 503, headers);
  }
  if (error instanceof ClientAborted) {
    log.info("client aborted the request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
    });
  }
  if (error instanceof ServiceUnavailable) headers["retry-after"] = String(UNAVAILABLE_RETRY_AFTER_S);
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
