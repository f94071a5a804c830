// The lead destinations reached over HTTP (webhook, Pipefy, Trello): what each receives and how an answer
// is judged. Network errors, timeouts, 408, 429 and 5xx are worth retrying; any other 4xx (and a redirect,
// which we never follow: destination URLs come only from configuration) is a permanent failure whose
// reason is kept. E-mail lives in lead_email.ts.
import { encodeBase64 } from "@oslojs/encoding";
import type { Config } from "../config.ts";
import type { ClaimedDelivery, DeliveryLead, Destination } from "../db/lead_deliveries.ts";

/** Every call to a destination gives up after this long (and is retried later). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export type SendOutcome =
  | { kind: "delivered"; ref: string | null }
  | { kind: "transient" | "permanent"; error: string };

/** One destination: sends one delivery and says how it went; never throws. */
export interface Sender {
  destination: Destination;
  send(delivery: ClaimedDelivery): Promise<SendOutcome>;
  close?(): void;
}

export interface SenderOptions {
  fetch?: typeof fetch;
  now?: () => Date;
}

/** Values that must never appear in a stored reason, a log line or an answer. */
export function configSecrets(config: Config): string[] {
  const smtpPassword = config.SMTP_URL ? decodeURIComponent(new URL(config.SMTP_URL).password) : "";
  return [
    config.LEAD_WEBHOOK_SECRET,
    config.LEAD_WEBHOOK_SECRET?.slice("whsec_".length),
    ...(config.LEAD_WEBHOOK_URL ? urlSecrets(config.LEAD_WEBHOOK_URL) : []),
    config.PIPEFY_TOKEN,
    config.TRELLO_KEY,
    config.TRELLO_TOKEN,
    config.SMTP_URL,
    smtpPassword,
    config.WHATSAPP_TOKEN,
    config.WHATSAPP_APP_SECRET,
    config.WHATSAPP_VERIFY_TOKEN,
  ].filter((s): s is string => Boolean(s && s.length >= 4));
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

/**
 * Every piece of a URL that may carry its token, as the receiver may echo it ("Cannot POST /hook/SECRET"):
 * the whole URL, its host, its path and query together and apart, each path segment and each query value,
 * as written and percent-decoded.
 */
export function urlSecrets(url: string): string[] {
  const u = new URL(url);
  const pieces = [
    url,
    u.href,
    `${u.origin}${u.pathname}`,
    u.host,
    u.hostname,
    `${u.pathname}${u.search}`,
    u.pathname.length > 1 ? u.pathname : "",
    u.search.slice(1),
    u.hash.slice(1),
    u.username,
    u.password,
    ...u.pathname.split("/"),
    ...u.search.slice(1).split("&").flatMap((pair) => pair.split("=")),
  ].filter(Boolean);
  return [...new Set(pieces.flatMap((p) => [p, decoded(p)]))];
}

// A piece shorter than this is replaced only where it stands alone (not inside a longer word or number), so
// a path segment such as `hooks` does not blot out `webhooks` in the receiver's message.
const ANYWHERE = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces every secret in `text` (longest first, so a secret inside another goes too). */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    out = secret.length >= ANYWHERE
      ? out.replaceAll(secret, "***")
      : out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(secret)}(?![\\p{L}\\p{N}])`, "gu"), "***");
  }
  return out;
}

/** A reason for a failed call that names what happened, never the URL (which may carry a token). */
export function networkReason(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  // fetch puts the socket's own words ("Connection refused") in the cause chain.
  let message = "";
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as Error).cause, depth++) {
    message += ` ${e instanceof Error ? e.message : String(e)}`;
  }
  if (name === "TimeoutError") return `sem resposta em ${DELIVERY_TIMEOUT_MS / 1000} s`;
  if (/refused/i.test(message)) return "conexão recusada";
  if (/dns|lookup|resolve|not known/i.test(message)) return "endereço não encontrado (DNS)";
  if (/certificate|tls|ssl/i.test(message)) return "erro de TLS (certificado)";
  if (/reset|closed|broken pipe/i.test(message)) return "conexão interrompida";
  return "erro de rede";
}

/**
 * The receiver's words, fit for a stored reason: whitespace folded, every secret replaced, at most 300
 * characters. Redacted before it is cut, so a secret at the cut cannot survive as a prefix.
 */
export function receiverText(text: string, secrets: string[]): string {
  return redact(text.slice(0, 65_536).replace(/\s+/g, " ").trim(), secrets).slice(0, 300);
}

/** Sends one request with the timeout; classifies the answer, or hands a 2xx body to `onOk`. */
async function call(
  fetchFn: typeof fetch,
  url: string,
  init: RequestInit,
  secrets: string[],
  onOk: (text: string) => SendOutcome,
): Promise<SendOutcome> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: "transient", error: networkReason(error) };
  }
  let text = "";
  try {
    text = await res.text();
  } catch (error) {
    return { kind: "transient", error: networkReason(error) };
  }
  if (res.status >= 200 && res.status < 300) return onOk(text);
  const detail = receiverText(text, secrets) || res.statusText;
  const error = `HTTP ${res.status}${detail ? `: ${detail}` : ""}`;
  if (res.status >= 300 && res.status < 400) {
    return {
      kind: "permanent",
      error: `${error} (redirecionamento não seguido: configure o endereço final)`,
    };
  }
  const transient = res.status >= 500 || res.status === 408 || res.status === 429;
  return { kind: transient ? "transient" : "permanent", error };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** "google / black-friday / cpc", or a plain word when the visitor came with no UTM. */
export function originOf(lead: DeliveryLead): string {
  return [lead.utmSource, lead.utmCampaign, lead.utmMedium].filter(Boolean).join(" / ") || "direto (sem UTM)";
}

export function planOf(lead: DeliveryLead): string {
  return lead.planLabel || lead.plan;
}

/** The dashboard's address (the leads are there with their deliveries). */
export function dashboardUrl(config: Config): string {
  return `${config.PUBLIC_ORIGIN}/pt-br/admin`;
}

/** "23/11/2026 10:30" in the analytics time zone. */
export function formatWhen(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", { timeZone, dateStyle: "short", timeStyle: "short" }).format(date);
}

// --- Webhook (Standard Webhooks: https://www.standardwebhooks.com) ---

/** The JSON the webhook receives: the lead, its attribution and the event id (also the webhook-id). */
export function webhookPayload(delivery: ClaimedDelivery): Record<string, unknown> {
  const { lead } = delivery;
  return {
    type: "lead.created",
    timestamp: lead.submittedAt.toISOString(),
    data: {
      eventId: delivery.eventId,
      lead: {
        id: lead.id,
        name: lead.name,
        email: lead.email,
        whatsapp: lead.whatsapp,
        plan: lead.plan,
        planLabel: lead.planLabel,
        submittedAt: lead.submittedAt.toISOString(),
      },
      attribution: {
        utmSource: lead.utmSource,
        utmCampaign: lead.utmCampaign,
        utmMedium: lead.utmMedium,
        page: lead.page,
      },
    },
  };
}

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes (the base64 after whsec_). */
export async function signWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const raw = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${encodeBase64(new Uint8Array(mac))}`;
}

function webhookSender(config: Config, fetchFn: typeof fetch, now: () => Date): Sender {
  const url = config.LEAD_WEBHOOK_URL!;
  const secret = config.LEAD_WEBHOOK_SECRET!;
  const secrets = configSecrets(config);
  return {
    destination: "webhook",
    async send(delivery) {
      const body = JSON.stringify(webhookPayload(delivery));
      const timestamp = Math.floor(now().getTime() / 1000);
      return await call(
        fetchFn,
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "ZapFlow-Webhooks/1",
            "webhook-id": delivery.eventId,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": await signWebhook(secret, delivery.eventId, timestamp, body),
          },
          body,
        },
        secrets,
        () => ({ kind: "delivered", ref: null }),
      );
    },
  };
}

// --- Pipefy (GraphQL createCard) ---

const CREATE_CARD = `mutation CreateLeadCard($input: CreateCardInput!) {
  createCard(input: $input) { card { id } }
}`;

/** The createCard input: the pipe, a title, and the mapped start-form fields. */
export function pipefyInput(config: Config, lead: DeliveryLead): Record<string, unknown> {
  const values: Record<string, string> = {
    name: lead.name,
    email: lead.email,
    whatsapp: lead.whatsapp,
    plan: planOf(lead),
    origin: originOf(lead),
  };
  return {
    pipe_id: config.PIPEFY_PIPE_ID,
    title: `${lead.name} — ${planOf(lead)}`,
    fields_attributes: Object.entries(config.PIPEFY_FIELDS ?? {}).map(([key, fieldId]) => ({
      field_id: fieldId,
      field_value: values[key],
    })),
  };
}

interface GraphQlAnswer {
  data?: { createCard?: { card?: { id?: string | number } } | null } | null;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

const TRANSIENT_GRAPHQL = /INTERNAL|UNAVAILABLE|TIMEOUT|THROTTL|RATE_LIMIT|TOO_MANY/i;

function pipefySender(config: Config, fetchFn: typeof fetch): Sender {
  const secrets = configSecrets(config);
  return {
    destination: "pipefy",
    async send(delivery) {
      return await call(
        fetchFn,
        config.PIPEFY_API_URL,
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${config.PIPEFY_TOKEN}` },
          body: JSON.stringify({
            query: CREATE_CARD,
            variables: { input: pipefyInput(config, delivery.lead) },
          }),
        },
        secrets,
        (text) => {
          // GraphQL reports its errors inside a 200 answer.
          const answer = parseJson(text) as GraphQlAnswer | undefined;
          const id = answer?.data?.createCard?.card?.id;
          if (id !== undefined && id !== null) return { kind: "delivered", ref: String(id) };
          const errors = answer?.errors ?? [];
          const error = errors.length
            ? `GraphQL: ${
              receiverText(
                errors.map((e) =>
                  `${e.message ?? "erro"}${e.extensions?.code ? ` (${e.extensions.code})` : ""}`
                )
                  .join("; "),
                secrets,
              )
            }`
            : "resposta sem o card criado";
          const transient = errors.some((e) =>
            TRANSIENT_GRAPHQL.test(`${e.extensions?.code ?? ""} ${e.message}`)
          );
          return { kind: transient ? "transient" : "permanent", error };
        },
      );
    },
  };
}

// --- Trello (REST POST /1/cards) ---

// Markdown's metacharacters (CommonMark's escapable punctuation, minus that of ordinary text and addresses:
// `@ / , ; ? = & % $ ' "`), the angle brackets of HTML, and `:` and `.`, which an autolink needs
// (`https://…`, `www.…`, `a@b.c`).
const MARKDOWN_META = /[\\`*_{}[\]()#+\-.!|~<>:]/g;

/**
 * Visitor-typed text as literal Markdown: every metacharacter backslash-escaped and line breaks flattened, so
 * `[Pague aqui](https://evil.example)` reaches the sales board as those characters, not as a link (nor an
 * autolink, an image, emphasis, a heading, a list or HTML).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(MARKDOWN_META, (c) => `\\${c}`);
}

/**
 * The card: title = name and plan; description = contact, origin, page, time and the dashboard link. Trello
 * renders the description as Markdown, so every value the visitor typed there is escaped; the title is plain
 * text on Trello (escaping it would show the backslashes).
 */
export function trelloCard(config: Config, delivery: ClaimedDelivery): Record<string, unknown> {
  const { lead } = delivery;
  const md = escapeMarkdown;
  const desc = [
    `**E-mail:** ${md(lead.email)}`,
    `**WhatsApp:** ${md(lead.whatsapp)}`,
    `**Plano:** ${md(planOf(lead))}`,
    `**Origem:** ${md(originOf(lead))}`,
    ...(lead.page ? [`**Página:** ${md(lead.page)}`] : []),
    `**Recebido em:** ${formatWhen(lead.submittedAt, config.ANALYTICS_TZ)}`,
    "",
    `Painel: ${dashboardUrl(config)}`,
    `Ref.: ${delivery.eventId}`,
  ].join("\n");
  const card: Record<string, unknown> = {
    idList: config.TRELLO_LIST_ID,
    name: `${lead.name} — ${planOf(lead)}`,
    desc,
    pos: "top",
  };
  if (config.TRELLO_DUE_HOURS) {
    card.due = new Date(lead.submittedAt.getTime() + config.TRELLO_DUE_HOURS * 3_600_000).toISOString();
  }
  return card;
}

function trelloSender(config: Config, fetchFn: typeof fetch): Sender {
  const url = `${config.TRELLO_API_URL.replace(/\/+$/, "")}/1/cards`;
  const secrets = configSecrets(config);
  // The key and token go in the Authorization header, not the query string, so no URL carries them.
  const authorization =
    `OAuth oauth_consumer_key="${config.TRELLO_KEY}", oauth_token="${config.TRELLO_TOKEN}"`;
  return {
    destination: "trello",
    async send(delivery) {
      return await call(
        fetchFn,
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json", authorization },
          body: JSON.stringify(trelloCard(config, delivery)),
        },
        secrets,
        (text) => {
          const id = (parseJson(text) as { id?: string } | undefined)?.id;
          return id
            ? { kind: "delivered", ref: id }
            : { kind: "permanent", error: "resposta sem o card criado" };
        },
      );
    },
  };
}

/** The destinations configured (all their variables set; config.ts refuses half of them), in panel order. */
export function enabledDestinations(
  config: Config,
): Array<Exclude<Destination, "whatsapp" | "whatsapp_sales">> {
  const list: Array<Exclude<Destination, "whatsapp" | "whatsapp_sales">> = [];
  if (config.LEAD_WEBHOOK_URL && config.LEAD_WEBHOOK_SECRET) list.push("webhook");
  if (config.PIPEFY_TOKEN && config.PIPEFY_PIPE_ID && config.PIPEFY_FIELDS) list.push("pipefy");
  if (config.TRELLO_KEY && config.TRELLO_TOKEN && config.TRELLO_LIST_ID) list.push("trello");
  if (config.SMTP_URL && config.LEAD_NOTIFY_TO && config.LEAD_NOTIFY_FROM) list.push("email");
  return list;
}

/** The sender of one configured HTTP destination. */
export function httpSender(
  destination: Exclude<Destination, "email" | "whatsapp" | "whatsapp_sales">,
  config: Config,
  options: SenderOptions = {},
): Sender {
  const fetchFn = options.fetch ?? fetch;
  if (destination === "webhook") return webhookSender(config, fetchFn, options.now ?? (() => new Date()));
  return destination === "pipefy" ? pipefySender(config, fetchFn) : trelloSender(config, fetchFn);
}
