// The hostile-input harness: one case = one hostile request (plus any set-up it needs), and the rules every
// case must pass: no 5xx, no stack trace or internal detail in the body, no unhandled error logged, the
// expected 4xx naming the bad fields, and (unless the case is a legitimate write) no stored data changed.
import type { Db } from "../../src/db/client.ts";
import { setLogSink } from "../../src/core/log.ts";
import type { TestApp } from "../app.ts";

export type Category =
  | "markup"
  | "sql"
  | "encoding"
  | "json"
  | "content-type"
  | "method"
  | "redirect"
  | "traversal"
  | "headers"
  | "session"
  | "password"
  | "csv"
  | "query";

export interface Ctx {
  t: TestApp;
  /** A live administrator session (`admin_session=...`). */
  cookie: string;
  /** The administrator's id. */
  adminId: number;
  /** Ids of the leads seeded before the cases run. */
  leadIds: number[];
  /** Moves the app's clock (each case starts an hour later, so rate-limit windows never carry over). */
  advance(ms: number): void;
}

export interface HostileCase {
  category: Category;
  name: string;
  /** Set-up before the "before" snapshot (e.g. sign in and out); its result reaches `send` and `check`. */
  prepare?(ctx: Ctx): Promise<unknown>;
  send(ctx: Ctx, prepared: unknown): Promise<Response>;
  /** Expected status, or any of several. */
  status: number | number[];
  /** For a 400: the fields the answer must name. */
  fields?: string[];
  /** A legitimate write (stored as literal text): the snapshot may change; `check` says how. */
  writes?: boolean;
  check?(res: Response, body: string, ctx: Ctx, prepared: unknown): Promise<void> | void;
}

/** Tables whose contents no refused request may change. */
const TABLES = ["leads", "visits", "clicks", "conversions", "meta_outbox", "admins", "sessions"];

/** Every row of the business tables, as text. */
export async function snapshot(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const rows = await db.query(`select * from ${table} order by 1`);
    parts.push(`${table}: ${JSON.stringify(rows)}`);
  }
  return parts.join("\n");
}

// Stack frames, source paths, error class names and database internals: none may reach a client.
const LEAK_ANY = /\n\s+at \S|\bat [\w$.<>]+ \(|\.tsx?:\d+|file:\/\/|node_modules|\/work\/|deno\.land/;
const LEAK_CLASS = /\b[A-Z][A-Za-z]*(Error|Exception)\b/;
const LEAK_DB = /sqlstate|postgres|pglite|syntax error|relation "|"stack"/i;

/** Why a body leaks internals, or null. HTML pages are only checked for traces (their copy is free text). */
export function leakIn(body: string, contentType: string): string | null {
  const any = body.match(LEAK_ANY);
  if (any) return `leaks "${any[0]}"`;
  if (!contentType.startsWith("text/html")) {
    const api = body.match(LEAK_CLASS) ?? body.match(LEAK_DB);
    if (api) return `leaks "${api[0]}"`;
  }
  return null;
}

export interface Outcome {
  name: string;
  status: number;
  problems: string[];
}

/** Runs one case and lists every rule it broke. */
export async function runCase(c: HostileCase, ctx: Ctx): Promise<Outcome> {
  const problems: string[] = [];
  ctx.advance(3_600_000);
  const prepared = c.prepare ? await c.prepare(ctx) : undefined;
  const before = c.writes ? "" : await snapshot(ctx.t.db);
  const errors: string[] = [];
  const restore = setLogSink((level, line) => {
    if (level === "error") errors.push(line);
  });
  let res: Response;
  let body: string;
  try {
    res = await c.send(ctx, prepared);
    body = await res.text();
  } finally {
    restore();
  }
  const type = res.headers.get("content-type") ?? "";
  if (res.status >= 500) problems.push(`5xx: ${res.status} ${body.slice(0, 200)}`);
  if (errors.length) problems.push(`logged an error: ${errors[0].slice(0, 300)}`);
  const leak = leakIn(body, type);
  if (leak) problems.push(leak);
  const expected = Array.isArray(c.status) ? c.status : [c.status];
  if (!expected.includes(res.status)) {
    problems.push(`status ${res.status}, expected ${expected.join("/")}: ${body.slice(0, 200)}`);
  }
  if (res.status >= 400 && res.status !== 404 && !type.startsWith("application/json")) {
    // Every refusal is our JSON error shape (a 404 may be the HTML page).
    if (!(res.status === 405 && type === "")) {
      problems.push(`a ${res.status} answered as ${type || "no type"}`);
    }
  }
  if (c.fields) {
    try {
      const named = Object.keys(JSON.parse(body).fields ?? {});
      for (const f of c.fields) {
        if (!named.includes(f)) problems.push(`400 does not name "${f}" (names ${named.join(", ")})`);
      }
    } catch {
      problems.push(`expected a JSON validation answer naming ${c.fields.join(", ")}`);
    }
  }
  if (!c.writes) {
    const after = await snapshot(ctx.t.db);
    if (after !== before) problems.push("stored data changed");
  }
  if (c.check) {
    try {
      await c.check(res, body, ctx, prepared);
    } catch (error) {
      problems.push(`check: ${(error as Error).message.slice(0, 400)}`);
    }
  }
  return { name: `[${c.category}] ${c.name}`, status: res.status, problems };
}

/** Same-origin request helpers shared by the case files. */
export const send = {
  /** A JSON body (or raw text) from our own origin. */
  json(
    ctx: Ctx,
    path: string,
    body: unknown,
    init: { method?: string; headers?: Record<string, string> } = {},
  ) {
    return ctx.t.request(path, {
      method: init.method ?? "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: {
        "content-type": "application/json",
        origin: ctx.t.deps.config.PUBLIC_ORIGIN,
        ...init.headers,
      },
    });
  },
  /** Raw bytes from our own origin, with the given content type. */
  bytes(ctx: Ctx, path: string, bytes: Uint8Array, type = "application/json", method = "POST") {
    return ctx.t.request(path, {
      method,
      body: bytes as Uint8Array<ArrayBuffer>,
      headers: { "content-type": type, origin: ctx.t.deps.config.PUBLIC_ORIGIN },
    });
  },
  /** GET (or another method without a body) as the signed-in administrator. */
  admin(ctx: Ctx, path: string, headers: Record<string, string> = {}) {
    return ctx.t.request(path, { headers: { cookie: ctx.cookie, ...headers } });
  },
  /** A JSON request as the signed-in administrator, from our own origin. */
  adminJson(ctx: Ctx, path: string, body: unknown, method = "POST", headers: Record<string, string> = {}) {
    return send.json(ctx, path, body, { method, headers: { cookie: ctx.cookie, ...headers } });
  },
  get(ctx: Ctx, path: string, headers: Record<string, string> = {}) {
    return ctx.t.request(path, { headers });
  },
};

/** The lead a visitor would send; cases override one field. */
export const LEAD = { name: "Ana Lima", email: "ana@example.com", whatsapp: "(11) 99999-0000", plan: "Pro" };

/** The administrator's view of one lead (by id), from the real list endpoint. */
export async function leadById(ctx: Ctx, id: number): Promise<Record<string, unknown>> {
  const res = await send.admin(ctx, "/api/leads?limit=500");
  const leads = await res.json() as Record<string, unknown>[];
  const lead = leads.find((l) => l.id === id);
  if (!lead) throw new Error(`lead ${id} not listed`);
  return lead;
}

/** The CSV export as text (BOM removed). */
export async function csvText(ctx: Ctx): Promise<string> {
  const res = await send.admin(ctx, "/api/leads/export.csv");
  return (await res.text()).replace(/^\uFEFF/, "");
}
