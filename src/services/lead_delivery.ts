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
  insertDeliveries,
  markAttemptFailed,
  markDelivered,
  releaseDeliveries,
  requeueDelivery,
} from "../db/lead_deliveries.ts";
import { log } from "../server/log.ts";
import {
  configSecrets,
  enabledDestinations,
  httpSender,
  redact,
  type Sender,
  type SenderOptions,
} from "./lead_destinations.ts";
import { emailSender } from "./lead_email.ts";
import { backoffMs, type Poller, startPoller } from "./outbox.ts";

/** Transient failures are retried for this long (from the lead's arrival or the last "Reenviar"). */
export const DELIVERY_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
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
}

export interface DeliveryReport {
  delivered: number;
  retrying: number;
  failed: number;
}

/** The configured destinations' senders, built once per worker (the SMTP transport is reused). */
export function createSenders(config: Config, options: SenderOptions = {}): Sender[] {
  return enabledDestinations(config).map((d) =>
    d === "email" ? emailSender(config) : httpSender(d, config, options)
  );
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
  for (let round = 0; round < 40; round++) {
    const start = now();
    const rows = await claimDueDeliveries(
      db,
      sender.destination,
      start,
      new Date(start.getTime() + LEASE_MS),
      token,
      BATCH,
    );
    for (const [i, row] of rows.entries()) {
      const outcome = await sender.send(row);
      const at = now();
      if (outcome.kind === "delivered") {
        if (await markDelivered(db, row.id, token, at, outcome.ref)) report.delivered++;
        else log.error("lead delivery lease lost", { destination: sender.destination, delivery: row.id });
        continue;
      }
      const error = redact(outcome.error, secrets);
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
      // The destination is down (or throttling): wait before this row, and hold the rest of the batch back
      // until then rather than knock on it once per lead.
      const next = new Date(at.getTime() + backoffMs(row.attempts + 1, options.random));
      await markAttemptFailed(db, row.id, token, at, error, next);
      const untried = rows.slice(i + 1).map((r) => r.id);
      await releaseDeliveries(db, untried, token, next);
      report.retrying += 1 + untried.length;
      log.warn("lead delivery will retry", {
        destination: sender.destination,
        delivery: row.id,
        error,
        held: untried.length,
      });
      return;
    }
    if (rows.length < BATCH) return;
  }
}

/** Polls for due deliveries every `intervalMs` until stopped; a no-op when no destination is configured. */
export function startLeadDeliveryWorker(
  db: Db,
  config: Config,
  options: DeliveryOptions & { intervalMs?: number } = {},
): Poller {
  const senders = createSenders(config, options);
  if (!senders.length) return { stop: () => Promise.resolve() };
  const poller = startPoller(
    "lead delivery worker",
    () => deliverDueLeads(db, config, senders, options),
    options.intervalMs ?? 2000,
  );
  return {
    async stop() {
      await poller.stop();
      for (const sender of senders) sender.close?.();
    },
  };
}

/** "Reenviar": the delivery is due again now with a fresh retry window; false if delivered or in flight. */
export async function resendDelivery(db: Db, leadId: number, destination: Destination, now: Date) {
  return await requeueDelivery(db, leadId, destination, now);
}

/** The deliveries of the given leads, for the dashboard's lead cards. */
export async function leadDeliveries(db: Db, leadIds: number[]): Promise<DeliveryView[]> {
  return leadIds.length ? await deliveriesOfLeads(db, leadIds) : [];
}

/** Each configured destination's last success and failure, with no secret in it. */
export async function destinationsPanel(db: Db, config: Config): Promise<DestinationHealth[]> {
  const health = await destinationHealth(db, enabledDestinations(config));
  const secrets = configSecrets(config);
  return health.map((h) => ({ ...h, lastError: h.lastError && redact(h.lastError, secrets) }));
}
