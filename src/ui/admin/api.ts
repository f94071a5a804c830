// The administrator's calls (spec section 7). Every call sends credentials; any non-OK answer becomes an
// error reading "status: body" (spec section 8).
import type { DailyCount } from "../../shared/analytics.ts";

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: string, readonly data: unknown) {
    super(`${status}: ${body}`);
  }
}

/**
 * A 401 from a call that needs a session: it ended elsewhere (logout, password change, expiry). The handler
 * set with onSessionEnded has already taken the administrator back to the login card, so callers show
 * nothing more for it.
 */
export class SessionEnded extends ApiError {}

let sessionEnded: (() => void) | undefined;

/** Sets what a 401 from a signed-in call does (AdminApp: back to the login card, with a toast). */
export function onSessionEnded(handler: (() => void) | undefined): void {
  sessionEnded = handler;
}

// The calls that answer 401 without meaning a session ended.
const SIGNED_OUT_CALLS = ["/api/admin/login", "/api/admin/check-auth"];

async function errorOf(res: Response, path: string): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let data: unknown = null;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  if (res.status === 401 && !SIGNED_OUT_CALLS.includes(path)) {
    sessionEnded?.();
    return new SessionEnded(res.status, text || res.statusText, data);
  }
  return new ApiError(res.status, text || res.statusText, data);
}

/** The server's `message` (or first field error) from a failed call, if it sent one. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== "object") return undefined;
  const data = error.data as { message?: unknown; fields?: Record<string, unknown> };
  if (typeof data.message === "string" && data.message) return data.message;
  return undefined;
}

/** GETs JSON from our API; throws ApiError on a non-OK answer. */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  if (!res.ok) throw await errorOf(res, path);
  return await res.json() as T;
}

/** GETs JSON with the total count header (paginated lists). */
export async function getPage<T>(path: string): Promise<{ items: T[]; total: number }> {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  if (!res.ok) throw await errorOf(res, path);
  const items = await res.json() as T[];
  return { items, total: Number(res.headers.get("x-total-count") ?? items.length) };
}

/** POSTs JSON (the server also requires our Origin, which the browser sends). */
export function postJson<T>(path: string, body?: unknown): Promise<T> {
  return sendJson<T>("POST", path, body);
}

/** Sends JSON with any method; throws ApiError on a non-OK answer. */
export async function sendJson<T>(method: "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await errorOf(res, path);
  return await res.json() as T;
}

export interface AuthStatus {
  isAuthenticated: boolean;
  email: string | null;
}

export interface ActionResult {
  success: boolean;
  message: string;
}

export interface Lead {
  id: number;
  name: string;
  email: string;
  whatsapp: string;
  plan: string;
  planLabel: string;
  submittedAt: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  firstSource: string | null;
  firstMedium: string | null;
  firstCampaign: string | null;
  firstChannel: string | null;
  firstLandingPage: string | null;
  lastSource: string | null;
  lastMedium: string | null;
  lastCampaign: string | null;
  lastChannel: string | null;
  lastLandingPage: string | null;
}

export interface PeriodSummary {
  start: string;
  end: string;
  uniqueVisitors: number;
  /** uniqueVisitors is an upper bound (over 62 days, or purged days): docs/UNIQUE_VISITORS.md. */
  approximate: boolean;
  visits: number;
  clicks: number;
  conversions: number;
  conversionRate: number;
  leads: number;
}

export interface Summary {
  current: PeriodSummary;
  previous: PeriodSummary;
}

export interface TrackingStats {
  clicks: number;
  conversions: number;
  rate: number;
}

export interface SourceConversion {
  utmSource: string | null;
  clicks: number;
  conversions: number;
  rate: number;
}

export interface ChannelRow {
  channel: string;
  visits: number;
  clicks: number;
  conversions: number;
  leads: number;
  leadRate: number;
  conversionRate: number;
}

/** Per channel, in the period and in the period of the same length just before. */
export interface ChannelReport {
  current: ChannelRow[];
  previous: ChannelRow[];
}

export type { DailyCount };

/** `?startDate=…&endDate=…` for a period. */
export function rangeQuery(start: string, end: string): string {
  return `startDate=${start}&endDate=${end}`;
}
