// Tells the administrator when lead deliveries start failing and when they recover: one e-mail per change
// of a destination's state (db/delivery_alerts.ts decides which attempt changed it), never one per lead.
// The e-mail goes when SMTP is configured (the e-mail destination's SMTP_URL and LEAD_NOTIFY_FROM), to the
// administrator's address; the change is logged either way.
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { firstAdminEmail } from "../db/admins.ts";
import { FAILING_AFTER } from "../db/delivery_alerts.ts";
import { log } from "../core/log.ts";
import { configSecrets, dashboardUrl, DELIVERY_TIMEOUT_MS, formatWhen, redact } from "./lead_destinations.ts";

export interface AlertChange {
  destination: string;
  /** true: it started failing; false: it recovered. */
  failing: boolean;
  at: Date;
  /** The failure that made it failing (no secret in it). */
  error?: string;
}

const NAMES: Record<string, string> = {
  webhook: "Webhook",
  pipefy: "Pipefy",
  trello: "Trello",
  email: "E-mail",
};

/** The administrator's e-mail about one change (Portuguese, plain text). */
export function alertMessage(config: Config, change: AlertChange): { subject: string; text: string } {
  const name = NAMES[change.destination] ?? change.destination;
  const when = formatWhen(change.at, config.ANALYTICS_TZ);
  const link = dashboardUrl(config);
  if (change.failing) {
    return {
      subject: `Entregas de leads falhando: ${name}`,
      text: [
        `As entregas de leads para ${name} começaram a falhar em ${when} (${FAILING_AFTER} tentativas seguidas).`,
        "",
        `Último erro: ${change.error ?? "desconhecido"}`,
        "",
        "Os leads continuam salvos no painel e são reenviados automaticamente por até 3 dias.",
        "Você receberá outro e-mail quando as entregas voltarem a funcionar; nenhum outro até lá.",
        "",
        `Ver no painel: ${link}`,
      ].join("\n"),
    };
  }
  return {
    subject: `Entregas de leads normalizadas: ${name}`,
    text: [
      `As entregas de leads para ${name} voltaram a funcionar em ${when}.`,
      "",
      `Os leads que esperavam são enviados agora. Ver no painel: ${link}`,
    ].join("\n"),
  };
}

export interface DeliveryAlerts {
  /** Logs the change and, with SMTP configured, e-mails the administrator; never throws. */
  send(change: AlertChange): Promise<void>;
  close(): void;
}

/** The alerts of one worker (its SMTP transport is reused and closed with the worker). */
export function deliveryAlerts(db: Db, config: Config): DeliveryAlerts {
  const secrets = configSecrets(config);
  const transport = config.SMTP_URL && config.LEAD_NOTIFY_FROM
    ? nodemailer.createTransport({
      url: config.SMTP_URL,
      connectionTimeout: DELIVERY_TIMEOUT_MS,
      greetingTimeout: DELIVERY_TIMEOUT_MS,
      socketTimeout: DELIVERY_TIMEOUT_MS,
      dnsTimeout: DELIVERY_TIMEOUT_MS,
    })
    : undefined;
  return {
    async send(change) {
      const fields = { destination: change.destination, error: change.error };
      if (change.failing) log.warn("lead destination failing: administrator alerted", fields);
      else log.info("lead destination recovered: administrator alerted", fields);
      if (!transport) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const to = await firstAdminEmail(db);
        if (!to) return log.warn("delivery alert not e-mailed: no administrator account yet");
        await Promise.race([
          transport.sendMail({ from: config.LEAD_NOTIFY_FROM, to, ...alertMessage(config, change) }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error("no answer in time")), 3 * DELIVERY_TIMEOUT_MS);
          }),
        ]);
      } catch (error) {
        log.warn("delivery alert not e-mailed", {
          destination: change.destination,
          error: redact(error instanceof Error ? error.message : String(error), secrets),
        });
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => transport?.close(),
  };
}
