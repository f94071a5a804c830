// Traffic channels (GA4's default channel group, plus "IA" for AI assistants), as stored in the database and
// as the dashboard names them. The derivation rules live in services/attribution.ts.

export const CHANNELS = [
  "paid_search",
  "paid_social",
  "paid_video",
  "display",
  "paid_other",
  "organic_search",
  "organic_social",
  "organic_video",
  "ai",
  "email",
  "affiliates",
  "sms",
  "referral",
  "direct",
  "unassigned",
] as const;

export type Channel = typeof CHANNELS[number];

// As Google Analytics 4 names its default channel groups in Portuguese (Brazil), so a marketer reads the
// same words here as there; "IA" (AI assistants) is ours.
export const CHANNEL_LABELS: Record<Channel, string> = {
  paid_search: "Pesquisa paga",
  paid_social: "Social pago",
  paid_video: "Vídeo pago",
  display: "Display",
  paid_other: "Outros pagos",
  organic_search: "Pesquisa orgânica",
  organic_social: "Social orgânico",
  organic_video: "Vídeo orgânico",
  ai: "IA",
  email: "E-mail",
  affiliates: "Afiliados",
  sms: "SMS",
  referral: "Referência",
  direct: "Direto",
  unassigned: "Não atribuído",
};

/** The dashboard's name for a stored channel (an unknown value is shown as it is). */
export function channelLabel(channel: string): string {
  return (CHANNEL_LABELS as Record<string, string>)[channel] ?? channel;
}
