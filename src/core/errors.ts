/** Typed errors thrown by routes and services; mapped to HTTP in exactly one place (error_handler.ts). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly body?: Record<string, unknown>) {
    super(message);
  }
}

export class ValidationError extends HttpError {
  constructor(readonly fields: Record<string, string>) {
    super(400, "validation", { error: "validation", fields });
  }
}

export class Unauthorized extends HttpError {
  constructor(message = "unauthorized") {
    super(401, message, { error: "unauthorized" });
  }
}

export class Forbidden extends HttpError {
  constructor(message = "forbidden") {
    super(403, message, { error: "forbidden" });
  }
}

export class NotFound extends HttpError {
  constructor(message = "not_found") {
    super(404, message, { error: "not_found" });
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(readonly allow: string[]) {
    super(405, "method_not_allowed", { error: "method_not_allowed", allow });
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(limit: number) {
    super(413, "payload_too_large", { error: "payload_too_large", limitBytes: limit });
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(expected: string) {
    super(415, "unsupported_media_type", { error: "unsupported_media_type", expected });
  }
}

/** The request's body did not arrive within the time a body is given (server/body.ts). */
export class RequestTimeout extends HttpError {
  constructor(limitMs: number) {
    super(408, "request_timeout", { error: "request_timeout", limitMs });
  }
}

export class RateLimited extends HttpError {
  constructor(readonly retryAfterSeconds: number, message = "rate_limited") {
    super(429, message, { error: "rate_limited", message, retryAfter: retryAfterSeconds });
  }
}

/**
 * The client closed the connection (or the connection guard cut it) before its body arrived. Nobody reads
 * the answer; 499 ("client closed request", as nginx logs it) keeps these apart from server errors.
 */
export class ClientAborted extends HttpError {
  constructor() {
    super(499, "client_aborted", { error: "client_aborted" });
  }
}

export class ServiceUnavailable extends HttpError {
  constructor(message = "service_unavailable") {
    super(503, message, { error: "service_unavailable" });
  }
}
