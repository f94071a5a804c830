// Every lead goes through this outbox (local storage): kept before it is sent, re-sent on later page loads
// with the same idempotency key until the server has it, so the server stores each one exactly once. Its
// conversion (tracking, the tag manager's lead_capture and the Meta pixel's Lead) travels with it and is
// recorded once, by whichever send delivers the lead: at once, or pages later.
import { LEAD_OUTBOX_MAX_AGE_MS } from "../shared/leads.ts";
import { trackEvent } from "./data_layer.ts";
import { trackConversion, type TrackingOrigin } from "./tracking.ts";

const OUTBOX_KEY = "zapflow.leadOutbox";
const LOCK_NAME = "zapflow.leadOutbox";
/** A send that has not answered by then counts as failed (the lead stays for a later page load). */
export const LEAD_SEND_TIMEOUT_MS = 15_000;

/** What a delivered lead records, taken when the visitor submitted it. */
export interface LeadConversion {
  /**
   * Tracking source (docs/PRODUCT.md, _What is tracked and when_): `pricing_{plan}_plan` or
   * `pricing_specialist_enterprise`.
   */
  source: string;
  /** The plan label for the tag manager's `lead_capture`. */
  label: string;
  /** The session and UTM origin the lead was submitted in. */
  origin: TrackingOrigin;
  /** The pixel's Lead event when the pixel ran at submit time: the id shared with the server's event. */
  meta: { eventId: string; customData: Record<string, string | number> } | null;
}

export interface PendingLead {
  idempotencyKey: string;
  createdAt: number;
  body: Record<string, unknown>;
  conversion?: LeadConversion;
}

export type SendResult = "saved" | "rejected" | "failed";

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function read(): PendingLead[] {
  try {
    const list = JSON.parse(storage()?.getItem(OUTBOX_KEY) ?? "[]");
    return Array.isArray(list)
      ? list.filter((l) => l && typeof l.idempotencyKey === "string" && l.body && typeof l.body === "object")
      : [];
  } catch {
    return [];
  }
}

function write(list: PendingLead[]): void {
  try {
    if (list.length) storage()?.setItem(OUTBOX_KEY, JSON.stringify(list));
    else storage()?.removeItem(OUTBOX_KEY);
  } catch {
    // storage full or disabled: nothing more we can do in the browser
  }
}

/** Keeps a lead until the server has it. */
export function keepLead(lead: PendingLead): void {
  write([...read().filter((l) => l.idempotencyKey !== lead.idempotencyKey), lead]);
}

/** Forgets a lead the server has accepted (or refused as invalid, which a re-send cannot fix). */
export function dropLead(idempotencyKey: string): void {
  write(read().filter((l) => l.idempotencyKey !== idempotencyKey));
}

let tabQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs deliveries one at a time across every tab of the site (Web Locks), or at least within this tab
 * where the browser has no locks: two sends of one lead never overlap, so its conversion cannot go twice.
 */
function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (locks?.request) return locks.request(LOCK_NAME, fn) as Promise<T>;
  const run = tabQueue.then(fn, fn);
  tabQueue = run.catch(() => {});
  return run;
}

/** Sends one lead: "saved", "rejected" (a 4xx that retrying cannot fix) or "failed" (try again later). */
export async function sendLead(body: Record<string, unknown>): Promise<SendResult> {
  try {
    const res = await fetch("/api/leads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      keepalive: true,
      signal: AbortSignal.timeout(LEAD_SEND_TIMEOUT_MS),
    });
    if (res.ok) {
      await res.arrayBuffer().catch(() => {});
      return "saved";
    }
    const text = await res.text().catch(() => "");
    console.error("Lead save failed:", `${res.status}: ${text || res.statusText}`);
    return res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429
      ? "rejected"
      : "failed";
  } catch (error) {
    console.error("Lead save failed:", error instanceof Error ? error.message : "Unknown error");
    return "failed";
  }
}

/** The conversion of a lead the server has just accepted. */
function recordConversion(conversion: LeadConversion): void {
  trackEvent("lead_capture", "lead", conversion.label);
  void trackConversion(conversion.source, conversion.origin);
  const meta = conversion.meta;
  // The pixel's code loads only where it runs; without consent on this page now, no browser event.
  if (meta) void import("./pixel.ts").then((p) => p.sendMetaEvent("Lead", meta.customData, meta.eventId));
}

/**
 * Sends a kept lead. Once the server has it the lead leaves the outbox and its conversion is recorded,
 * exactly once: a lead another tab (or an earlier flush) already delivered counts as saved and records
 * nothing more.
 */
export function deliverLead(idempotencyKey: string): Promise<SendResult> {
  return exclusive(async () => {
    const lead = read().find((l) => l.idempotencyKey === idempotencyKey);
    if (!lead) return "saved";
    const result = await sendLead(lead.body);
    if (result !== "failed") dropLead(idempotencyKey);
    if (result === "saved" && lead.conversion) recordConversion(lead.conversion);
    return result;
  });
}

let flushing = false;

/** Re-sends every waiting lead once (page load); keeps those that still fail. */
export async function flushLeadOutbox(now = Date.now()): Promise<void> {
  if (flushing) return;
  flushing = true;
  try {
    for (const lead of read()) {
      if (now - lead.createdAt > LEAD_OUTBOX_MAX_AGE_MS) {
        dropLead(lead.idempotencyKey);
        continue;
      }
      if (await deliverLead(lead.idempotencyKey) === "failed") break; // still unreachable: next time
    }
  } finally {
    flushing = false;
  }
}
