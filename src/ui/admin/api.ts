// The administrator's calls (docs/PRODUCT.md, _Dashboard_). Every call sends credentials; every answer is
// parsed with its schema from shared/admin_schemas.ts (the contract shared with the server), never cast; any
// non-OK answer becomes an error reading "status: body" (docs/PRODUCT.md, _Errors_).
import type { z } from "zod";
import { apiError, type ApiErrorBody } from "../../shared/admin_schemas.ts";
import { textOf } from "./messages.ts";

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: string, readonly data: ApiErrorBody | null) {
    super(`${status}: ${body}`);
  }
}

/**
 * A 401 from a call that needs a session: it ended elsewhere (logout, password change, expiry). The query
 * client's error handlers (AdminApp.tsx, createQueryClient) take the administrator back to the login card
 * for any query or mutation that fails with it, so callers show nothing more for it.
 */
export class SessionEnded extends ApiError {}

// The calls that answer 401 without meaning a session ended.
const SIGNED_OUT_CALLS = ["/api/admin/login", "/api/admin/check-auth"];

async function errorOf(res: Response, path: string): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let data: ApiErrorBody | null = null;
  try {
    const parsed = apiError.safeParse(JSON.parse(text));
    if (parsed.success) data = parsed.data;
  } catch {
    // not JSON: keep the text
  }
  if (res.status === 401 && !SIGNED_OUT_CALLS.includes(path)) {
    return new SessionEnded(res.status, text || res.statusText, data);
  }
  return new ApiError(res.status, text || res.statusText, data);
}

/**
 * What to tell the administrator about a failed call, if there is something: the server's own `message`
 * when its answer says `success: false` (sign-in, password change), else the dashboard's text for the error
 * code (messages.ts).
 */
export function errorText(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.data?.success === false && error.data.message) return error.data.message;
  return textOf(error.data?.error);
}

/** The answer's JSON, checked against `schema`: a drifted server answer fails here, by name, not later. */
async function parsed<S extends z.ZodType>(res: Response, path: string, schema: S): Promise<z.output<S>> {
  const result = schema.safeParse(await res.json());
  if (!result.success) throw new Error(`${path}: unexpected answer: ${result.error.message}`);
  return result.data;
}

/** GETs JSON from our API and parses it with `schema`; throws ApiError on a non-OK answer. */
export async function getJson<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  if (!res.ok) throw await errorOf(res, path);
  return await parsed(res, path, schema);
}

/** GETs a JSON list with the total count header (paginated lists). */
export async function getPage<S extends z.ZodType<unknown[]>>(
  path: string,
  schema: S,
): Promise<{ items: z.output<S>; total: number }> {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  if (!res.ok) throw await errorOf(res, path);
  const items = await parsed(res, path, schema);
  return { items, total: Number(res.headers.get("x-total-count") ?? items.length) };
}

/**
 * Sends JSON with any method (the server also requires our Origin, which the browser sends); throws ApiError
 * on a non-OK answer. With a schema, the answer is parsed with it; without, its body is not read.
 */
export async function sendJson<S extends z.ZodType>(
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body: unknown,
  schema: S,
): Promise<z.output<S>>;
export async function sendJson(
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<void>;
export async function sendJson(
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
  schema?: z.ZodType,
): Promise<unknown> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await errorOf(res, path);
  if (schema) return await parsed(res, path, schema);
  await res.body?.cancel();
}
