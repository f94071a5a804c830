import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { refusalMessage } from "../../shared/admin_messages.ts";

/**
 * For the sign-in and the password change, whose every answer says `success` and `message` (docs/PRODUCT.md,
 * _Dashboard_; src/routes/api/contract_test.ts guards the fields): a refusal from
 * anything behind this (the admin guard, the body's checks, the throttle, the handler, a database outage)
 * keeps its status, headers and `{ error, ... }` fields and gains `success: false` and the Portuguese text of
 * its code. The handlers write their own successful answers.
 */
export function outcome(): MiddlewareHandler<AppEnv> {
  return async function outcomeMiddleware(c, next) {
    await next();
    const res = c.res;
    if (res.status < 400 || !(res.headers.get("content-type") ?? "").includes("application/json")) return;
    const body: unknown = await res.clone().json().catch(() => null);
    if (!body || typeof body !== "object" || Array.isArray(body)) return;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    const answer = { ...body, success: false, message: refusalMessage(body) };
    // Unset first: assigning over a response would merge the old one's headers into the new one.
    c.res = undefined;
    c.res = new Response(JSON.stringify(answer), { status: res.status, headers });
  };
}
