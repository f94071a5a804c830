/**
 * Business data that is not translation text. A site owner rebrands by editing this file only;
 * copy in every language lives in `locales/`.
 */
export const SITE = {
  brand: "ZapFlow",
  legalName: "ZapFlow Tecnologia Ltda.",
  contactEmail: "contato@zapflow.com.br",
  supportEmail: "suporte@zapflow.com.br",
  phoneDisplay: "+55 (11) 4003-9120",
  phoneE164: "+551140039120",
  whatsappNumber: "5511940039120",
  address: "Av. Paulista, 1636, Conj. 1504, Bela Vista, São Paulo - SP, 01310-200",
  loginUrl: "https://app.zapflow.com.br/login",
  apiDocsUrl: "https://docs.zapflow.com.br",
  platformUrl: "https://app.zapflow.com.br",
  chatbotCancellationUrl: "https://ajuda.zapflow.com.br/cancelamento-chatbot",
  youtubeChannelUrl: "https://www.youtube.com/@zapflow",
  social: {
    instagram: "https://www.instagram.com/zapflow",
    linkedin: "https://www.linkedin.com/company/zapflow",
    youtube: "https://www.youtube.com/@zapflow",
    facebook: "https://www.facebook.com/zapflow",
  },
} as const;
