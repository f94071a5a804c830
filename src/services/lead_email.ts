// The e-mail destination: a short message in Portuguese to the sales inbox over SMTP (nodemailer), plain
// text and HTML. SMTP 5xx answers are permanent; 4xx, refused connections and timeouts are retried.
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import type { ClaimedDelivery } from "../db/lead_deliveries.ts";
import {
  configSecrets,
  dashboardUrl,
  DELIVERY_TIMEOUT_MS,
  formatWhen,
  networkReason,
  originOf,
  planOf,
  receiverText,
  type Sender,
  type SendOutcome,
} from "./lead_destinations.ts";
import { normalizePhone } from "./meta_event.ts";
import { plainAddress } from "../shared/email.ts";

/** Whole-message limit on top of nodemailer's per-step timeouts (connect, greeting, each socket read). */
const SEND_LIMIT_MS = 3 * DELIVERY_TIMEOUT_MS;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface LeadMessage {
  subject: string;
  text: string;
  html: string;
}

/** The message the sales team reads: who, which plan, where from, and the way to the dashboard. */
export function leadMessage(config: Config, delivery: ClaimedDelivery): LeadMessage {
  const { lead } = delivery;
  const wa = normalizePhone(lead.whatsapp);
  // A link only for one plain address, as the dashboard does: `victim@corp.example?cc=attacker@evil.example`
  // is shown as text.
  const address = plainAddress(lead.email);
  const rows: Array<[string, string, string | null]> = [
    ["Nome", lead.name, null],
    ["E-mail", lead.email, address && `mailto:${address}`],
    ["WhatsApp", lead.whatsapp, wa ? `https://wa.me/${wa}` : null],
    ["Plano", planOf(lead), null],
    ["Origem", originOf(lead), null],
    ...(lead.page ? [["Página", lead.page, null] as [string, string, null]] : []),
    ["Recebido em", formatWhen(lead.submittedAt, config.ANALYTICS_TZ), null],
  ];
  const link = dashboardUrl(config);
  const text = [
    "Um novo lead pediu contato pelo site. Fale com ele o quanto antes.",
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    "",
    `Ver no painel: ${link}`,
  ].join("\n");
  const cells = rows.map(([k, v, href]) => {
    const value = href ? `<a href="${escapeHtml(href)}">${escapeHtml(v)}</a>` : escapeHtml(v);
    return `<tr><th align="left" style="padding:4px 12px 4px 0">${k}</th><td style="padding:4px 0">${value}</td></tr>`;
  }).join("");
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:Arial,sans-serif;color:#111">` +
    `<p>Um novo lead pediu contato pelo site. Fale com ele o quanto antes.</p>` +
    `<table role="presentation" style="border-collapse:collapse">${cells}</table>` +
    `<p><a href="${escapeHtml(link)}">Ver no painel</a></p></body></html>`;
  return { subject: `Novo lead: ${lead.name} — ${planOf(lead)}`, text, html };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** Judges a nodemailer failure; the server's own answer is kept as the reason (without secrets). */
export function smtpOutcome(error: unknown, secrets: string[]): SendOutcome {
  const e = (error ?? {}) as SmtpError;
  if (typeof e.responseCode === "number") {
    const reason = `SMTP ${e.responseCode}: ${receiverText(e.response ?? e.message ?? "", secrets)}`;
    return { kind: e.responseCode >= 500 ? "permanent" : "transient", error: reason };
  }
  if (e.code === "ETIMEDOUT") {
    return { kind: "transient", error: `sem resposta em ${DELIVERY_TIMEOUT_MS / 1000} s` };
  }
  if (e.code === "EAUTH" || e.code === "EENVELOPE") {
    return { kind: "permanent", error: `SMTP: ${receiverText(e.message ?? e.code ?? "", secrets)}` };
  }
  return { kind: "transient", error: networkReason(new Error(`${e.code ?? ""} ${e.message ?? ""}`)) };
}

/** The e-mail sender (SMTP_URL, LEAD_NOTIFY_TO and LEAD_NOTIFY_FROM are set). */
export function emailSender(config: Config): Sender {
  const secrets = configSecrets(config);
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: DELIVERY_TIMEOUT_MS,
    greetingTimeout: DELIVERY_TIMEOUT_MS,
    socketTimeout: DELIVERY_TIMEOUT_MS,
    dnsTimeout: DELIVERY_TIMEOUT_MS,
  });
  const domain = new URL(config.PUBLIC_ORIGIN).hostname;
  return {
    destination: "email",
    async send(delivery) {
      const message = leadMessage(config, delivery);
      // Replying reaches the lead only when their e-mail is one plain address: nodemailer reads
      // `victim@corp.example,attacker@evil.example` as two, and the reply would go to both.
      const replyTo = plainAddress(delivery.lead.email);
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const info = await Promise.race([
          transport.sendMail({
            from: config.LEAD_NOTIFY_FROM,
            to: config.LEAD_NOTIFY_TO,
            ...(replyTo ? { replyTo } : {}),
            // Stable across retries, so a mail system that saw it already can tell it is the same message.
            messageId: `<${delivery.eventId}@${domain}>`,
            ...message,
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject({ code: "ETIMEDOUT" }), SEND_LIMIT_MS);
          }),
        ]);
        return { kind: "delivered", ref: info.messageId ?? null };
      } catch (error) {
        return smtpOutcome(error, secrets);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => transport.close(),
  };
}
