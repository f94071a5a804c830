import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import { NotFound, PayloadTooLarge, Unauthorized, ValidationError } from "../../core/errors.ts";
import { log } from "../../core/log.ts";
import {
  applyWebhook,
  sameBytes,
  verifyWebhookSignature,
  whatsappConfigured,
} from "../../services/whatsapp.ts";

/** Meta's webhook bodies are small (a few statuses or messages); anything larger is refused unread. */
export const WHATSAPP_WEBHOOK_MAX_BYTES = 256 * 1024;
const BODY_TIMEOUT_MS = 10_000;

/**
 * /api/whatsapp/webhook: Meta's WhatsApp webhook. GET answers the verification handshake; POST takes the
 * statuses of our messages and the leads' replies, signed by Meta with the app secret (X-Hub-Signature-256
 * over the raw body). Not behind the same-origin check: Meta posts from its servers; the signature is the
 * authentication. 404 while WhatsApp is not configured.
 */
export const whatsappApi = new Hono<AppEnv>();

whatsappApi.get("/webhook", (c) => {
  const { config } = c.get("deps");
  if (!whatsappConfigured(config)) throw new NotFound();
  const mode = c.req.query("hub.mode");
  const token = c.req.query("hub.verify_token") ?? "";
  const challenge = c.req.query("hub.challenge") ?? "";
  if (
    mode !== "subscribe" || !sameBytes(token, config.WHATSAPP_VERIFY_TOKEN!) ||
    !/^[\w-]{1,200}$/.test(challenge)
  ) {
    return c.text("forbidden", 403, { "cache-control": "no-store" });
  }
  return c.text(challenge, 200, { "cache-control": "no-store" });
});

/** The raw body, at most `max` bytes (413 above, counted while streaming), within the body timeout. */
async function rawBody(req: Request, max: number): Promise<Uint8Array> {
  if (Number(req.headers.get("content-length") ?? "0") > max) throw new PayloadTooLarge(max);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const timer = setTimeout(() => reader.cancel().catch(() => {}), BODY_TIMEOUT_MS);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        throw new PayloadTooLarge(max);
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

whatsappApi.post("/webhook", async (c) => {
  const { config, db } = c.get("deps");
  if (!whatsappConfigured(config)) throw new NotFound();
  const body = await rawBody(c.req.raw, WHATSAPP_WEBHOOK_MAX_BYTES);
  if (!await verifyWebhookSignature(config.WHATSAPP_APP_SECRET!, body, c.req.header("x-hub-signature-256"))) {
    throw new Unauthorized();
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new ValidationError({ body: "must be valid JSON" });
  }
  const changed = await applyWebhook(db, config, payload, c.get("now"));
  log.debug("whatsapp webhook", { changed });
  return c.text("ok", 200, { "cache-control": "no-store" });
});
