import type { Context } from "hono";
import type { z } from "zod";
import {
  ClientAborted,
  PayloadTooLarge,
  RequestTimeout,
  UnsupportedMediaType,
  ValidationError,
} from "../core/errors.ts";

/**
 * How long a body may take to arrive once its handler reads it. The connection guard already cuts a request
 * not answered 10 s after its headers; this clock is for the app served plainly behind a proxy
 * (CONNECTION_GUARD=0), where nothing else would end a body that drips (Caddy does not time an HTTP/2
 * stream's body): the request ends with 408 and its stream is cancelled.
 */
export const BODY_TIMEOUT_MS = 10_000;

/** Turns zod issues into `{ field: message }`, the shape every 400 answer uses. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    fields[key] ??= issue.message;
  }
  return fields;
}

interface Node {
  value: unknown;
  key: string;
  parent?: Node;
}

function pathOf(node: Node | undefined): string {
  const keys: string[] = [];
  for (let n = node; n?.parent; n = n.parent) keys.push(n.key);
  return keys.length ? keys.reverse().join(".") : "body";
}

function badText(s: string): string | undefined {
  if (s.includes("\0")) return "must not contain NUL characters";
  if (!s.isWellFormed()) return "must be valid Unicode text";
}

/**
 * `{ field: message }` for every string (value or key) in `value` holding a NUL or a lone surrogate:
 * PostgreSQL text can store neither, so they are refused before any schema sees them, whatever the endpoint.
 * Iterative, so deeply nested input costs no stack.
 */
export function unsafeText(value: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  const stack: Node[] = [{ value, key: "" }];
  let found = 0;
  while (stack.length && found < 20) {
    const node = stack.pop()!;
    if (typeof node.value === "string") {
      const problem = badText(node.value);
      if (problem) {
        fields[pathOf(node)] ??= problem;
        found++;
      }
    } else if (node.value !== null && typeof node.value === "object") {
      for (const [key, child] of Object.entries(node.value)) {
        const problem = badText(key);
        if (problem) {
          fields[pathOf(node)] ??= "keys must be valid Unicode text without NUL characters";
          found++;
        } else stack.push({ value: child, key, parent: node });
      }
    }
  }
  return fields;
}

/** Parses `value` with `schema` or throws a ValidationError naming each bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const unsafe = unsafeText(value);
  if (Object.keys(unsafe).length) throw new ValidationError(unsafe);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  return parsed.data;
}

export interface ReadJsonOptions {
  /** Largest body accepted, in bytes (413 above). */
  maxBytes: number;
  /** Also accept `text/plain` (sendBeacon with a string body sends it). */
  allowTextPlain?: boolean;
  /** How long the body may take to arrive (default BODY_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * Reads a JSON body: 415 for another content type, 413 over `maxBytes` (counted while streaming, so a
 * lying Content-Length does not help), 400 for malformed JSON or a schema mismatch.
 */
export async function readJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: ReadJsonOptions,
): Promise<z.output<S>> {
  return parseOr400(schema, await readJsonValue(c, options));
}

/**
 * The body's JSON value, not yet checked against a schema: a route that counts requests against a quota
 * reads the body first (an upload the client aborted counts nothing), then counts, then validates.
 */
export async function readJsonValue(c: Context, options: ReadJsonOptions): Promise<unknown> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !(options.allowTextPlain && type === "text/plain")) {
    throw new UnsupportedMediaType("application/json");
  }
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > options.maxBytes) throw new PayloadTooLarge(options.maxBytes);
  let text: string;
  try {
    text = await withDeadline(
      readLimited(c.req.raw, options.maxBytes),
      options.timeoutMs ?? BODY_TIMEOUT_MS,
      () => c.req.raw.body?.cancel().catch(() => {}),
    );
  } catch (error) {
    throw isClientGone(error) ? new ClientAborted() : error;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError({ body: "must be valid JSON" });
  }
}

/** The errors Deno's HTTP layer raises when the client went away (or was cut) mid-body. */
function isClientGone(error: unknown): boolean {
  return error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Interrupted ||
    error instanceof Deno.errors.ConnectionReset || error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.UnexpectedEof || error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.Http;
}

/** Body reads in flight, each with its deadline; one sweep checks them all. */
const pendingReads = new Set<{ deadline: number; expire(): void }>();
let sweep: ReturnType<typeof setInterval> | undefined;

/**
 * `work`, or RequestTimeout once `ms` have passed (then `onTimeout` releases what the read holds). One
 * interval timer serves every read in flight, checking every 100 ms, so a deadline can pass up to that late:
 * a timer of its own per request cost about 4 % of a tracking request's CPU.
 */
function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const read = {
      deadline: Date.now() + ms,
      expire() {
        onTimeout();
        reject(new RequestTimeout(ms));
        work.catch(() => {}); // the read may still fail once cancelled: nobody waits for it then
      },
    };
    pendingReads.add(read);
    if (sweep === undefined) {
      sweep = setInterval(() => {
        const now = Date.now();
        for (const pending of pendingReads) {
          if (pending.deadline > now) continue;
          pendingReads.delete(pending);
          pending.expire();
        }
        if (pendingReads.size === 0) {
          clearInterval(sweep);
          sweep = undefined;
        }
      }, 100);
    }
    // After the deadline has rejected, settling again does nothing.
    work.then(resolve, reject).finally(() => pendingReads.delete(read));
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function readLimited(req: Request, maxBytes: number): Promise<string> {
  // With a Content-Length (already checked against maxBytes) the HTTP layer stops the body at that length,
  // so one read is safe and much cheaper than a stream loop; the size is checked again all the same.
  // `req.body` is not touched on this path: in Deno, getting it builds a ReadableStream, and the read then
  // goes through that stream instead of taking the received body whole (about 10 µs more per request).
  if (req.headers.has("content-length")) {
    const bytes = new Uint8Array(await req.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw new PayloadTooLarge(maxBytes);
    return decodeUtf8(bytes);
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decodeUtf8(all);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ValidationError({ body: "must be UTF-8" });
  }
}
