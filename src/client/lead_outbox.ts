// Leads whose save failed wait here (local storage) and are re-sent on later page loads with the same
// idempotency key, so the server stores each one exactly once however many times it is sent.

const OUTBOX_KEY = "zapflow.leadOutbox";
const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface PendingLead {
  idempotencyKey: string;
  createdAt: number;
  body: Record<string, unknown>;
}

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

/** Sends one lead: "saved", "rejected" (a 4xx that retrying cannot fix) or "failed" (try again later). */
export async function sendLead(body: Record<string, unknown>): Promise<"saved" | "rejected" | "failed"> {
  try {
    const res = await fetch("/api/leads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      keepalive: true,
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

let flushing = false;

/** Re-sends every waiting lead once (page load); keeps those that still fail. */
export async function flushLeadOutbox(now = Date.now()): Promise<void> {
  if (flushing) return;
  flushing = true;
  try {
    for (const lead of read()) {
      if (now - lead.createdAt > MAX_AGE_MS) {
        dropLead(lead.idempotencyKey);
        continue;
      }
      const result = await sendLead(lead.body);
      if (result !== "failed") dropLead(lead.idempotencyKey);
      else break; // the server is still unreachable: try the rest next time
    }
  } finally {
    flushing = false;
  }
}
