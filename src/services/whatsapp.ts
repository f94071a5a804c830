// WhatsApp Business Cloud API: the lead's template message and the sales notifications, sent through the
// one lead outbox (lead_delivery.ts: leases, retries, "Reenviar"), and Meta's webhook (statuses of our
// messages, the lead's replies). Meta's error codes decide retry or give-up; README, "WhatsApp", lists them.
import type { Config } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import type { ClaimedDelivery } from "../db/lead_deliveries.ts";
import {
  insertWhatsappDeliveries,
  recordMessageStatus,
  recordReply,
  setLeadWhatsapp,
  type WhatsappRow,
  type WhatsappStatus,
} from "../db/whatsapp.ts";
import { langOfPage } from "../shared/whatsapp_link.ts";
import { e164FormsOfWaId, whatsappE164 } from "../shared/whatsapp_number.ts";
import type { Lang } from "../shared/languages.ts";
import {
  DELIVERY_TIMEOUT_MS,
  networkReason,
  planOf,
  receiverText,
  type Sender,
  type SenderOptions,
  type SendOutcome,
} from "./lead_destinations.ts";

/** The version of the consent box's text ("Quero receber o contato pelo WhatsApp"), stored with the consent. */
export const WHATSAPP_CONSENT_VERSION = "2026-11-v1";

/** Why a lead who agreed gets no message. */
export const INVALID_NUMBER = "número inválido para WhatsApp";

/** True when the WhatsApp variables are set (config.ts refuses half of them). */
export function whatsappConfigured(config: Config): boolean {
  return Boolean(config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_TEMPLATE);
}

/** The WhatsApp destinations configured, in panel order. */
export function whatsappDestinations(config: Config): Array<"whatsapp" | "whatsapp_sales"> {
  if (!whatsappConfigured(config)) return [];
  return config.WHATSAPP_SALES_TO?.length && config.WHATSAPP_SALES_TEMPLATE
    ? ["whatsapp", "whatsapp_sales"]
    : ["whatsapp"];
}

export function whatsappSecrets(config: Config): string[] {
  return [config.WHATSAPP_TOKEN, config.WHATSAPP_APP_SECRET, config.WHATSAPP_VERIFY_TOKEN]
    .filter((s): s is string => Boolean(s && s.length >= 4));
}

/**
 * Stores the lead's consent and number and queues its WhatsApp rows (inside the lead's transaction): the
 * lead's message only with consent (a number that is not a valid mobile one is stored failed with its
 * reason), and one notification per sales number.
 */
export async function queueWhatsapp(
  db: Queryable,
  config: Config,
  leadId: number,
  lead: { whatsapp: string; page: string | null; consent: boolean },
  now: Date,
): Promise<void> {
  if (!whatsappConfigured(config)) return;
  const e164 = whatsappE164(lead.whatsapp, langOfPage(lead.page));
  await setLeadWhatsapp(db, leadId, {
    consentAt: lead.consent ? now : null,
    consentVersion: lead.consent ? `${WHATSAPP_CONSENT_VERSION}:${langOfPage(lead.page)}` : null,
    e164,
  });
  const rows: WhatsappRow[] = [];
  if (lead.consent) {
    rows.push(
      e164
        ? { destination: "whatsapp", recipient: e164 }
        : { destination: "whatsapp", recipient: null, failedReason: INVALID_NUMBER },
    );
  }
  if (whatsappDestinations(config).includes("whatsapp_sales")) {
    for (const to of config.WHATSAPP_SALES_TO!) rows.push({ destination: "whatsapp_sales", recipient: to });
  }
  await insertWhatsappDeliveries(db, leadId, rows, now);
}

const TEMPLATE_LANG: Record<Lang, string> = { pt: "pt_BR", en: "en_US", es: "es" };

/** The Graph API's message body: a template with its body parameters. */
export function templateMessage(
  to: string,
  template: string,
  language: string,
  parameters: string[],
): Record<string, unknown> {
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    type: "template",
    template: {
      name: template,
      language: { code: language },
      components: [{
        type: "body",
        parameters: parameters.map((text) => ({ type: "text", text: text.slice(0, 1000) })),
      }],
    },
  };
}

// Meta's error codes (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes): worth another
// try later, or a refusal kept with its reason.
const RETRY_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);
const GIVE_UP: Record<number, string> = {
  100: "parâmetro inválido",
  190: "token de acesso inválido ou expirado",
  131026: "o número não está no WhatsApp",
  131047: "mais de 24 h desde a última mensagem do lead (reengajamento recusado)",
  131051: "tipo de mensagem não suportado",
  132000: "número de parâmetros do modelo não confere",
  132001: "modelo inexistente neste idioma",
  132005: "texto do modelo longo demais",
  132007: "modelo viola a política de conteúdo",
  132012: "parâmetros do modelo em formato errado",
  132015: "modelo pausado",
  132016: "modelo desativado",
  133010: "número remetente não registrado",
};

interface GraphError {
  code?: number;
  message?: string;
  error_data?: { details?: string };
}

/** The outcome of a Graph API error answer, by its code (or by HTTP status when it has none). */
export function classifyGraphError(
  status: number,
  error: GraphError | undefined,
  secrets: string[],
): SendOutcome {
  const code = typeof error?.code === "number" ? error.code : null;
  const words = receiverText(`${error?.message ?? ""} ${error?.error_data?.details ?? ""}`, secrets);
  if (code !== null && GIVE_UP[code]) {
    return { kind: "permanent", error: `WhatsApp ${code}: ${GIVE_UP[code]}${words ? ` (${words})` : ""}` };
  }
  const error_ = `WhatsApp ${code ?? `HTTP ${status}`}${words ? `: ${words}` : ""}`;
  if (code !== null && RETRY_CODES.has(code)) return { kind: "transient", error: error_ };
  const transient = status >= 500 || status === 408 || status === 429;
  return { kind: transient ? "transient" : "permanent", error: error_ };
}

async function postMessage(
  fetchFn: typeof fetch,
  config: Config,
  body: Record<string, unknown>,
  secrets: string[],
): Promise<SendOutcome & { code?: number }> {
  const url = `${config.WHATSAPP_API_URL.replace(/\/+$/, "")}/${config.WHATSAPP_PHONE_NUMBER_ID}/messages`;
  let res: Response;
  let text: string;
  try {
    res = await fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${config.WHATSAPP_TOKEN}` },
      body: JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    return { kind: "transient", error: networkReason(error) };
  }
  let answer: { messages?: Array<{ id?: string }>; error?: GraphError } | undefined;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (res.status >= 200 && res.status < 300) {
    const id = answer?.messages?.[0]?.id;
    return id
      ? { kind: "delivered", ref: id }
      : { kind: "permanent", error: "resposta sem o id da mensagem" };
  }
  return { ...classifyGraphError(res.status, answer?.error, secrets), code: answer?.error?.code };
}

/** The senders of the configured WhatsApp destinations. */
export function whatsappSenders(config: Config, options: SenderOptions = {}): Sender[] {
  const fetchFn = options.fetch ?? fetch;
  const secrets = whatsappSecrets(config);
  return whatsappDestinations(config).map((destination): Sender => ({
    destination,
    async send(delivery: ClaimedDelivery) {
      const { lead } = delivery;
      if (destination === "whatsapp_sales") {
        if (!delivery.recipient) return { kind: "permanent", error: "sem número de destino" };
        return await postMessage(
          fetchFn,
          config,
          templateMessage(delivery.recipient, config.WHATSAPP_SALES_TEMPLATE!, "pt_BR", [
            lead.name,
            planOf(lead),
            lead.whatsapp,
          ]),
          secrets,
        );
      }
      const lang = langOfPage(lead.page);
      const to = delivery.recipient ?? whatsappE164(lead.whatsapp, lang);
      if (!to) return { kind: "permanent", error: INVALID_NUMBER };
      const params = [lead.name, planOf(lead)];
      const language = TEMPLATE_LANG[lang];
      const first = await postMessage(
        fetchFn,
        config,
        templateMessage(to, config.WHATSAPP_TEMPLATE!, language, params),
        secrets,
      );
      // The template is not approved in the page's language: the fallback language chosen in config.
      const fallback = config.WHATSAPP_TEMPLATE_FALLBACK_LANG;
      if (first.kind === "permanent" && first.code === 132001 && fallback !== language) {
        return await postMessage(
          fetchFn,
          config,
          templateMessage(to, config.WHATSAPP_TEMPLATE!, fallback, params),
          secrets,
        );
      }
      const { code: _, ...outcome } = first;
      return outcome as SendOutcome;
    },
  }));
}

// --- Webhook ---

/** Constant-time comparison of two strings' bytes (a different length answers false at once). */
export function sameBytes(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

/** `sha256=` + hex HMAC-SHA256 of the raw body under the app secret, as Meta signs it. */
export async function webhookSignature(secret: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, body as BufferSource));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** True when the X-Hub-Signature-256 header is the body's signature under the app secret. */
export async function verifyWebhookSignature(
  secret: string,
  body: Uint8Array,
  header: string | undefined,
): Promise<boolean> {
  if (!header) return false;
  return sameBytes(header.trim().toLowerCase(), await webhookSignature(secret, body));
}

interface WebhookPayload {
  object?: string;
  entry?: Array<{
    changes?: Array<{
      field?: string;
      value?: {
        metadata?: { phone_number_id?: string };
        statuses?: Array<{
          id?: string;
          status?: string;
          timestamp?: string;
          errors?: Array<{ code?: number; title?: string; message?: string }>;
        }>;
        messages?: Array<{ from?: string; timestamp?: string }>;
      };
    }>;
  }>;
}

const STATUSES = new Set<WhatsappStatus>(["sent", "delivered", "read", "failed"]);

function timeOf(seconds: string | undefined, now: Date): Date {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 && n < 1e11 ? new Date(n * 1000) : now;
}

/**
 * Applies a verified webhook: each status of our messages, and each message a lead wrote (only that, and
 * when: never its text). Idempotent: every fact is written once. Returns how many facts changed.
 */
export async function applyWebhook(
  db: Queryable,
  config: Config,
  payload: unknown,
  now: Date,
): Promise<number> {
  const body = payload as WebhookPayload;
  if (!body || typeof body !== "object" || !Array.isArray(body.entry)) return 0;
  let changed = 0;
  for (const entry of body.entry) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (!value || value.metadata?.phone_number_id !== config.WHATSAPP_PHONE_NUMBER_ID) continue;
      for (const s of Array.isArray(value.statuses) ? value.statuses : []) {
        if (typeof s?.id !== "string" || !STATUSES.has(s.status as WhatsappStatus)) continue;
        const error = s.status === "failed" && Array.isArray(s.errors) && s.errors[0]
          ? `${s.errors[0].code ?? ""} ${s.errors[0].title ?? s.errors[0].message ?? ""}`.trim()
          : null;
        if (
          await recordMessageStatus(db, s.id, s.status as WhatsappStatus, timeOf(s.timestamp, now), error)
        ) {
          changed++;
        }
      }
      for (const m of Array.isArray(value.messages) ? value.messages : []) {
        if (typeof m?.from !== "string") continue;
        changed += await recordReply(db, e164FormsOfWaId(m.from), timeOf(m.timestamp, now));
      }
    }
  }
  return changed;
}
