// Meta Conversions API delivery through the outbox: events are queued in the same database as the lead,
// then a worker sends them in batches with retries, so a slow or unreachable Graph API never loses one
// and never delays a visitor. Retry policy: Meta's troubleshooting page (1.5 s timeout, retry non-client
// errors) and the Graph error codes for temporary and throttling failures.
import type { Config } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import {
  claimDueMetaEvents,
  enqueueMetaEvent,
  markMetaEventsFailed,
  markMetaEventsSent,
  type OutboxRow,
  rescheduleMetaEvent,
} from "../db/meta_outbox.ts";
import { log } from "../core/log.ts";
import { backoffMs } from "./outbox.ts";
import type { JobSpec } from "./jobs.ts";
import { buildServerEvent, type EventInput, type MetaClient } from "./meta_event.ts";

export const META_BATCH_MAX = 1000;
export const META_TIMEOUT_MS = 1500;
/**
 * Transient failures are retried for this long after the event was queued, then recorded as failed. Meta
 * refuses a whole request if any event in it is more than 7 days old; 6 days keeps a margin, and rides out
 * an outage of the Graph API (or of our network) over a long weekend.
 */
export const META_RETRY_WINDOW_MS = 6 * 24 * 60 * 60 * 1000;
const LEASE_MS = 60_000;
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 341, 613]);

type MetaConfig = Pick<
  Config,
  "META_PIXEL_ID" | "META_ACCESS_TOKEN" | "META_GRAPH_URL" | "META_TEST_EVENT_CODE"
>;

/** True when both the pixel id and the access token are configured (otherwise nothing is sent). */
export function metaEnabled(config: MetaConfig): boolean {
  return Boolean(config.META_PIXEL_ID && config.META_ACCESS_TOKEN);
}

/** Queues one server event for delivery (no-op when Meta is not configured). Returns true when queued. */
export async function queueMetaEvent(
  db: Queryable,
  config: MetaConfig,
  input: EventInput,
  client: MetaClient,
  now: Date,
): Promise<boolean> {
  if (!metaEnabled(config)) return false;
  const event = await buildServerEvent(input, client, now);
  return await enqueueMetaEvent(db, input.eventId, input.eventName, { ...event }, now);
}

type Outcome = { kind: "sent" } | { kind: "transient"; error: string } | { kind: "invalid"; error: string };

interface GraphError {
  error?: {
    message?: string;
    code?: number;
    error_subcode?: number;
    is_transient?: boolean;
    fbtrace_id?: string;
  };
}

async function post(
  config: MetaConfig,
  events: unknown[],
  fetchFn: typeof fetch,
): Promise<Outcome> {
  const url = `${config.META_GRAPH_URL.replace(/\/+$/, "")}/${config.META_PIXEL_ID}/events`;
  const body: Record<string, unknown> = { data: events, access_token: config.META_ACCESS_TOKEN };
  if (config.META_TEST_EVENT_CODE) body.test_event_code = config.META_TEST_EVENT_CODE;
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(META_TIMEOUT_MS),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return { kind: "transient", error: name === "TimeoutError" ? "timeout" : `network: ${name}` };
  }
  const text = await res.text().catch(() => "");
  if (res.ok) return { kind: "sent" };
  let parsed: GraphError = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: judged by status alone
  }
  const e = parsed.error ?? {};
  const error = `${res.status}${e.code !== undefined ? ` code ${e.code}` : ""}${
    e.error_subcode ? `/${e.error_subcode}` : ""
  }: ${e.message ?? (text.slice(0, 200) || res.statusText)}${
    e.fbtrace_id ? ` (fbtrace_id ${e.fbtrace_id})` : ""
  }`;
  const transient = res.status >= 500 || res.status === 429 || e.is_transient === true ||
    (e.code !== undefined && TRANSIENT_CODES.has(e.code));
  return { kind: transient ? "transient" : "invalid", error };
}

export interface DeliverOptions {
  now: () => Date;
  fetch?: typeof fetch;
  random?: () => number;
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Sends every due event once (batches of up to 1,000): delivered ones are marked sent, transient failures
 * are rescheduled with backoff until 6 days have passed, validation errors are recorded and not retried.
 */
export async function deliverDueMetaEvents(
  db: Db,
  config: MetaConfig,
  options: DeliverOptions,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  if (!metaEnabled(config)) return report;
  const fetchFn = options.fetch ?? fetch;
  for (let round = 0; round < 100; round++) {
    const now = options.now();
    const rows = await claimDueMetaEvents(db, now, new Date(now.getTime() + LEASE_MS), META_BATCH_MAX);
    if (!rows.length) break;
    await deliverBatch(db, config, rows, fetchFn, options, report);
    if (rows.length < META_BATCH_MAX) break;
  }
  return report;
}

async function deliverBatch(
  db: Db,
  config: MetaConfig,
  rows: OutboxRow[],
  fetchFn: typeof fetch,
  options: DeliverOptions,
  report: DeliveryReport,
): Promise<void> {
  const outcome = await post(config, rows.map((r) => r.payload), fetchFn);
  const now = options.now();
  if (outcome.kind === "sent") {
    await markMetaEventsSent(db, rows.map((r) => r.id), now);
    report.sent += rows.length;
    return;
  }
  if (outcome.kind === "invalid" && rows.length > 1) {
    // Meta rejects a whole batch for one bad event: find it by sending each alone.
    for (const row of rows) await deliverBatch(db, config, [row], fetchFn, options, report);
    return;
  }
  if (outcome.kind === "invalid") {
    await markMetaEventsFailed(db, rows.map((r) => r.id), outcome.error);
    report.failed += rows.length;
    log.warn("meta event rejected", { eventName: rows[0].eventName, error: outcome.error });
    return;
  }
  for (const row of rows) {
    if (now.getTime() - row.createdAt.getTime() >= META_RETRY_WINDOW_MS) {
      await markMetaEventsFailed(
        db,
        [row.id],
        `gave up after 6 days (Meta refuses events over 7 days old): ${outcome.error}`,
      );
      report.failed++;
      continue;
    }
    const delay = backoffMs(row.attempts + 1, options.random);
    await rescheduleMetaEvent(db, row.id, new Date(now.getTime() + delay), outcome.error);
    report.retrying++;
  }
  log.warn("meta delivery failed, will retry", { events: rows.length, error: outcome.error });
}

/**
 * The delivery job: polls the outbox every two seconds; null when Meta is not configured. No lock: several
 * instances may run side by side (each claims its rows under a lease).
 */
export function metaDeliveryJob(
  db: Db,
  config: MetaConfig,
  options: { now?: () => Date; every?: number } = {},
): JobSpec<DeliveryReport> | null {
  if (!metaEnabled(config)) return null;
  const now = options.now ?? (() => new Date());
  return {
    name: "meta-delivery",
    db,
    every: options.every ?? 2000,
    summaryEvery: 60_000,
    run: () => deliverDueMetaEvents(db, config, { now }),
  };
}
