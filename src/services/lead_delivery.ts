// Every lead reaches the sales team: one outbox row per lead and configured destination, written in the
// lead's transaction, then a worker in every instance delivers them. Each destination runs on its own (one
// that is down never delays another); a transient failure is retried with exponential backoff for 3 days
// and holds back that destination's other due rows until it answers again; a permanent one keeps its
// reason. "Delivered once": a row is sent only under a lease that no other worker can take, and its outcome
// is recorded only while the lease is still this worker's (see db/lead_deliveries.ts).
import type { Config } from "../config.ts";
export { enabledDestinations } from "./lead_destinations.ts";
import type { Db, Queryable } from "../db/client.ts";
import {
  claimDueDeliveries,
  deliveriesOfLeads,
  type DeliveryView,
  type Destination,
  type DestinationHealth,
  destinationHealth,
  holdDestination,
  insertDeliveries,
  markAttemptFailed,
  markDelivered,
  requeueDelivery,
} from "../db/lead_deliveries.ts";
import { log } from "../core/log.ts";
import {
  configSecrets,
  enabledDestinations,
  httpSender,
  redact,
  type Sender,
  type SenderOptions,
} from "./lead_destinations.ts";
import { emailSender } from "./lead_email.ts";
import { backoffMs } from "./outbox.ts";
import { type AlertChange, deliveryAlerts } from "./delivery_alerts.ts";
import { noteDeliveryOutcome } from "../db/delivery_alerts.ts";
import type { JobSpec } from "./jobs.ts";
import { whatsappDestinations, whatsappSenders } from "./whatsapp.ts";

/** Transient failures are retried for this long (from the lead's arrival or the last "Reenviar"). */
export const DELIVERY_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Told ("queued") when a new lead's deliveries were committed in this process: the delivery job started by
 * schedule.ts runs at once instead of at its next poll, so a WhatsApp message leaves a moment after the form
 * (bench/whatsapp_latency.ts). Other instances still find the rows at their own poll.
 */
export const deliveriesQueued = new EventTarget();
const BATCH = 25;
// Longer than a whole batch can take (25 e-mails at their 30 s limit: 12.5 min), so no lease ends while its
// row is still being sent.
const LEASE_MS = 15 * 60_000;

/** Queues the new lead for every configured destination (call inside the lead's transaction). */
export async function queueLeadDeliveries(db: Queryable, config: Config, leadId: number, now: Date) {
  await insertDeliveries(db, leadId, enabledDestinations(config), now);
}

export interface DeliveryOptions extends SenderOptions {
  random?: () => number;
  /** Receives each destination that started failing or recovered during the run (delivery_alerts.ts). */
  onAlert?: (change: AlertChange) => void;
}

export interface DeliveryReport {
  delivered: number;
  retrying: number;
  failed: number;
}

/** The configured destinations' senders, built once per worker (the SMTP transport is reused). */
export function createSenders(config: Config, options: SenderOptions = {}): Sender[] {
  return [
    ...enabledDestinations(config).map((d) =>
      d === "email" ? emailSender(config) : httpSender(d, config, options)
    ),
    ...whatsappSenders(config, options),
  ];
}

/** Delivers everything due now, every destination side by side. */
export async function deliverDueLeads(
  db: Db,
  config: Config,
  senders: Sender[],
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0 };
  const secrets = configSecrets(config);
  await Promise.all(senders.map((sender) => deliverDestination(db, sender, secrets, options, report)));
  return report;
}

async function deliverDestination(
  db: Db,
  sender: Sender,
  secrets: string[],
  options: DeliveryOptions,
  report: DeliveryReport,
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const token = crypto.randomUUID();
  // A transient failure may be the destination (down, throttling) or this one lead (a receiver that fails
  // on its data). After one, the next lead is tried: if it fails too, the destination is down, and every
  // lead waiting for it (claimed or not, and those arriving meanwhile) waits for this row's retry instead of
  // knocking once each; if it goes through, only the failed lead backs off.
  let failedInARow = 0;
  let holdUntil = 0;
  for (let round = 0; round < 40; round++) {
    const start = now();
    // A run starts with one row, and goes on one at a time after a failure: a destination that is down
    // costs two calls and a few statements per run, however many leads wait for it.
    const limit = round === 0 || failedInARow ? 1 : BATCH;
    const rows = await claimDueDeliveries(
      db,
      sender.destination,
      start,
      new Date(start.getTime() + LEASE_MS),
      token,
      limit,
    );
    for (const row of rows) {
      const outcome = await sender.send(row);
      const at = now();
      if (outcome.kind === "delivered") {
        failedInARow = 0;
        holdUntil = 0;
        if (await markDelivered(db, row.id, token, at, outcome.ref)) report.delivered++;
        else log.error("lead delivery lease lost", { destination: sender.destination, delivery: row.id });
        if (await noteDeliveryOutcome(db, sender.destination, true, at)) {
          options.onAlert?.({ destination: sender.destination, failing: false, at });
        }
        continue;
      }
      const error = redact(outcome.error, secrets);
      if (await noteDeliveryOutcome(db, sender.destination, false, at)) {
        options.onAlert?.({ destination: sender.destination, failing: true, at, error });
      }
      const expired = at.getTime() - row.retrySince.getTime() >= DELIVERY_RETRY_WINDOW_MS;
      if (outcome.kind === "permanent" || expired) {
        const reason = outcome.kind === "permanent" ? error : `desistiu após 3 dias de tentativas: ${error}`;
        await markAttemptFailed(db, row.id, token, at, reason, null);
        report.failed++;
        log.warn("lead delivery failed", {
          destination: sender.destination,
          delivery: row.id,
          error: reason,
        });
        continue;
      }
      const next = new Date(at.getTime() + backoffMs(row.attempts + 1, options.random));
      await markAttemptFailed(db, row.id, token, at, error, next);
      report.retrying++;
      // The longer wait of the two: a lead that just arrived must not cut short the destination's backoff.
      holdUntil = Math.max(holdUntil, next.getTime());
      if (++failedInARow < 2) {
        log.warn("lead delivery will retry", { destination: sender.destination, delivery: row.id, error });
        continue;
      }
      const held = await holdDestination(db, sender.destination, token, new Date(holdUntil));
      report.retrying += held;
      log.warn("lead destination down: holding its deliveries", {
        destination: sender.destination,
        delivery: row.id,
        error,
        held,
      });
      return;
    }
    if (rows.length < limit) return;
  }
}

/**
 * The delivery job: polls for due deliveries every two seconds; null when no destination is configured. No
 * lock: every instance delivers (rows are claimed under leases).
 */
export function leadDeliveryJob(
  db: Db,
  config: Config,
  options: DeliveryOptions & { every?: number } = {},
): JobSpec<DeliveryReport> | null {
  const senders = createSenders(config, options);
  if (!senders.length) return null;
  const alerts = deliveryAlerts(db, config);
  return {
    name: "lead-delivery",
    db,
    every: options.every ?? 2000,
    summaryEvery: 60_000,
    run: async () => {
      const changes: AlertChange[] = [];
      const report = await deliverDueLeads(db, config, senders, {
        ...options,
        onAlert: (change) => changes.push(change),
      });
      for (const change of changes) await alerts.send(change);
      return report;
    },
    close: () => {
      for (const sender of senders) sender.close?.();
      alerts.close();
    },
  };
}

/** "Reenviar": the delivery is due again now with a fresh retry window; false if delivered or in flight. */
export async function resendDelivery(db: Db, leadId: number, destination: Destination, now: Date) {
  return await requeueDelivery(db, leadId, destination, now);
}

/**
 * The deliveries of the given leads, for the dashboard's lead cards, each with its state at `now` and no
 * secret in its reason (those stored by an older version may still hold one; the configuration may have
 * changed since).
 */
export async function leadDeliveries(
  db: Db,
  config: Config,
  leadIds: number[],
  now: Date,
): Promise<DeliveryView[]> {
  if (!leadIds.length) return [];
  const secrets = configSecrets(config);
  return (await deliveriesOfLeads(db, leadIds, now)).map((d) => ({
    ...d,
    lastError: d.lastError && redact(d.lastError, secrets),
  }));
}

/** Each configured destination's last success and failure, with no secret in it. */
export async function destinationsPanel(db: Db, config: Config): Promise<DestinationHealth[]> {
  const health = await destinationHealth(db, [
    ...enabledDestinations(config),
    ...whatsappDestinations(config),
  ]);
  const secrets = configSecrets(config);
  return health.map((h) => ({ ...h, lastError: h.lastError && redact(h.lastError, secrets) }));
}
