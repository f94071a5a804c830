import { Hono } from "hono";
import type { AppEnv } from "../../server/env.ts";
import type { PublicConfig } from "../../shared/schemas.ts";
import { whatsappConfigured } from "../../services/whatsapp.ts";

/**
 * /api/config: the browser's public settings (Meta pixel and Tag Manager ids), never a secret; with WhatsApp
 * configured, also `whatsappConsent: true` (the lead dialog shows its consent box). Without it the answer is
 * the documented two ids alone.
 */
export const configApi = new Hono<AppEnv>();

configApi.get("/", (c) => {
  const { config } = c.get("deps");
  const body: PublicConfig = {
    metaPixelId: config.META_PIXEL_ID ?? null,
    gtmId: config.GTM_ID ?? null,
    ...(whatsappConfigured(config) ? { whatsappConsent: true } : {}),
  };
  return c.json(body);
});
