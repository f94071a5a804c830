/**
 * Business data that is not translation text. A site owner rebrands by editing this file only;
 * copy in every language lives in `locales/`.
 */
import type { Lang } from "./shared/languages.ts";

export type PlanKey = "micro" | "pro" | "premium";
export type SectorKey =
  | "consulting"
  | "restaurants"
  | "events"
  | "crypto"
  | "wellness"
  | "security"
  | "energy"
  | "clinic"
  | "autoParts"
  | "electrical"
  | "education"
  | "hotelConsulting"
  | "digitalMarketing"
  | "food"
  | "agribusiness"
  | "technology"
  | "outdoorMedia"
  | "realEstate"
  | "metallurgy"
  | "diagnostics"
  | "services"
  | "fleet"
  | "association"
  | "legal";

const WHATSAPP_NUMBER = "5511940039120";

/** A wa.me link that opens WhatsApp with a prefilled message. */
export function whatsappLink(text: string): string {
  return `https://wa.me/${WHATSAPP_NUMBER}?text=${encodeURIComponent(text)}`;
}

/** Which prefilled WhatsApp text each page's WhatsApp links send (`SITE.whatsappMessages`). */
export const PAGE_WHATSAPP_MESSAGE = {
  home: "specialist",
  pipefy: "pipefy",
  trello: "trello",
  customers: "customers",
  terms: "specialist",
  privacy: "specialist",
  admin: "specialist",
} as const;

/** The WhatsApp link of a page, with the text meant for it (the Trello page sends the Trello message). */
export function pageWhatsappLink(page: keyof typeof PAGE_WHATSAPP_MESSAGE, lang: Lang): string {
  return whatsappLink(SITE.whatsappMessages[PAGE_WHATSAPP_MESSAGE[page]][lang]);
}

/** A self-hosted poster image under `static/`, in a modern format (WebP, AVIF), with its size in pixels. */
export interface VideoThumbnail {
  src: string;
  width: number;
  height: number;
}

/** A YouTube video of the site, with an optional self-hosted poster (else the gradient tile shows). */
export interface Video {
  id: string;
  thumbnail?: VideoThumbnail;
}
/**
 * One pricing story (issue 15): every plan includes the Pipefy and Trello integrations with a monthly package
 * of messages. Micro, Pro and Premium are the pricing cards (their prices and packages are also translation
 * text, `home:pricing.plans.*`, checked against this table by `src/site_test.ts`); Enterprise is offered in
 * the specialist box under them. Monthly price in BRL.
 */
const PLAN_TABLE = [
  { key: "micro", messages: 1000, price: 147, featured: false },
  { key: "pro", messages: 3000, price: 297, featured: true },
  { key: "premium", messages: 7000, price: 497, featured: false },
  { key: "enterprise", messages: 15000, price: 827, featured: false },
] as const;

/** A plan's monthly price in BRL, from the one table above. */
function tablePrice(key: (typeof PLAN_TABLE)[number]["key"]): number {
  return PLAN_TABLE.find((row) => row.key === key)!.price;
}

export const SITE = {
  brand: "ZapFlow",
  legalName: "ZapFlow Tecnologia Ltda.",
  contactEmail: "contato@zapflow.com.br",
  supportEmail: "suporte@zapflow.com.br",
  phoneDisplay: "+55 (11) 4003-9120",
  phoneE164: "+551140039120",
  whatsappNumber: WHATSAPP_NUMBER,
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
  /** Prefilled WhatsApp texts, per language. */
  whatsappMessages: {
    specialist: {
      pt: "Olá! Quero falar com um especialista sobre a automação de WhatsApp da ZapFlow.",
      en: "Hi! I would like to talk to a specialist about ZapFlow's WhatsApp automation.",
      es: "¡Hola! Quiero hablar con un especialista sobre la automatización de WhatsApp de ZapFlow.",
    },
    pipefy: {
      pt: "Olá! Quero saber mais sobre a integração do WhatsApp com o Pipefy.",
      en: "Hi! I would like to know more about the WhatsApp integration with Pipefy.",
      es: "¡Hola! Quiero saber más sobre la integración de WhatsApp con Pipefy.",
    },
    trello: {
      pt: "Olá! Quero saber mais sobre a integração do WhatsApp com o Trello.",
      en: "Hi! I would like to know more about the WhatsApp integration with Trello.",
      es: "¡Hola! Quiero saber más sobre la integración de WhatsApp con Trello.",
    },
    customers: {
      pt:
        "Olá! Vi os clientes da ZapFlow e quero saber como a automação de WhatsApp funcionaria na minha empresa.",
      en:
        "Hi! I saw ZapFlow's customers and would like to know how WhatsApp automation would work for my company.",
      es:
        "¡Hola! Vi los clientes de ZapFlow y quiero saber cómo funcionaría la automatización de WhatsApp en mi empresa.",
    },
  } satisfies Record<string, Record<Lang, string>>,
  /**
   * Subscription plans; names, displayed prices and limits are translation text (`home:pricing.plans.*`).
   * `price` is the monthly price in BRL the server reports to Meta for a lead on that plan.
   */
  plans: [
    {
      key: "micro",
      price: tablePrice("micro"),
      checkoutUrl: "https://app.zapflow.com.br/checkout/micro",
      highlighted: false,
    },
    {
      key: "pro",
      price: tablePrice("pro"),
      checkoutUrl: "https://app.zapflow.com.br/checkout/pro",
      highlighted: true,
    },
    {
      key: "premium",
      price: tablePrice("premium"),
      checkoutUrl: "https://app.zapflow.com.br/checkout/premium",
      highlighted: false,
    },
  ] as { key: PlanKey; price: number; checkoutUrl: string; highlighted: boolean }[],
  /**
   * YouTube ids, start times (seconds) and optional self-hosted posters: a `thumbnail` under `static/`
   * (WebP or AVIF, with its size) shows instead of the gradient tile, and nothing is fetched from YouTube
   * before the visitor presses play. `deno run -A scripts/video_thumbnails.ts` draws the demo posters.
   */
  videos: {
    homeDemo: {
      id: "Qm7dXb3nZ1E",
      start: 325,
      thumbnail: { src: "/videos/home-demo.webp", width: 960, height: 540 },
    },
    homeList: [{ id: "r8N2kT4pL0w" }, { id: "Hc5vYq1mB7s" }, { id: "u3JfW9xZp2k" }],
    pipefyDemo: {
      id: "pF8kR2mX7aQ",
      start: 2,
      thumbnail: { src: "/videos/pipefy-demo.webp", width: 960, height: 540 },
    },
    trelloDemo: {
      id: "tR4nL9vB3cW",
      start: 0,
      thumbnail: { src: "/videos/trello-demo.webp", width: 960, height: 540 },
    },
    pipefyTutorials: [
      { id: "a1Pf9kXy2Lm" },
      { id: "b2Qg8jWz3Kn" },
      { id: "c3Rh7iVa4Jo" },
      { id: "d4Si6hUb5Ip" },
      { id: "e5Tj5gTc6Hq" },
      { id: "f6Uk4fSd7Gr" },
    ],
    trelloTutorials: [
      { id: "g7Vl3eRe8Fs" },
      { id: "h8Wm2dQf9Et" },
      { id: "i9Xn1cPg0Du" },
      { id: "j0Yo0bOh1Cv" },
      { id: "k1Zp9aNi2Bw" },
      { id: "l2Aq8zMj3Ax" },
    ],
  } as
    & Record<"homeDemo" | "pipefyDemo" | "trelloDemo", Video & { start: number }>
    & Record<"homeList" | "pipefyTutorials" | "trelloTutorials", Video[]>,
  /** Customers shown on the customers page; a missing logo falls back to an initials tile. */
  customers: [
    { name: "Vértice Consultoria", sector: "consulting", logo: "/logos/vertice.webp" },
    { name: "Sabor da Vila", sector: "restaurants", logo: "/logos/sabor-da-vila.webp" },
    { name: "Palco Ingressos", sector: "events", logo: "/logos/palco.webp" },
    { name: "CriptoNorte", sector: "crypto", logo: "/logos/criptonorte.webp" },
    { name: "Equilíbrio Spa", sector: "wellness", logo: "/logos/equilibrio.webp" },
    { name: "Guardião Segurança", sector: "security", logo: "/logos/guardiao.webp" },
    { name: "Solaris Energia", sector: "energy", logo: "/logos/solaris.webp" },
    { name: "Clínica Bem Viver", sector: "clinic", logo: "/logos/bem-viver.webp" },
    { name: "Rota Autopeças", sector: "autoParts", logo: "/logos/rota.webp" },
    { name: "Fio Forte Materiais Elétricos", sector: "electrical", logo: "/logos/fio-forte.webp" },
    { name: "Instituto Saber", sector: "education", logo: "/logos/saber.webp" },
    { name: "Hospeda Consultoria Hoteleira", sector: "hotelConsulting", logo: "/logos/hospeda.webp" },
    { name: "Pulso Digital", sector: "digitalMarketing", logo: "/logos/pulso.webp" },
    { name: "Grão Dourado Alimentos", sector: "food", logo: "/logos/grao-dourado.webp" },
    { name: "Terra Viva Agro", sector: "agribusiness", logo: "/logos/terra-viva.webp" },
    { name: "Nuvem Tech", sector: "technology", logo: "/logos/nuvem.webp" },
    { name: "Painel Mídia Exterior", sector: "outdoorMedia", logo: "/logos/painel.webp" },
    { name: "Chave Imóveis", sector: "realEstate", logo: "/logos/chave.webp" },
    { name: "Aço Prime Metalurgia", sector: "metallurgy", logo: "/logos/aco-prime.webp" },
    { name: "LabVida Diagnósticos", sector: "diagnostics", logo: "/logos/labvida.webp" },
    { name: "Mão Certa Serviços", sector: "services", logo: "/logos/mao-certa.webp" },
    { name: "FrotaMax", sector: "fleet", logo: "/logos/frotamax.webp" },
    { name: "Associação Comercial Paulista Sul", sector: "association", logo: "/logos/acps.webp" },
    { name: "Moura & Lima Advogados", sector: "legal", logo: "/logos/moura-lima.webp" },
    { name: "Orbe Tecnologia", sector: "technology", logo: "/logos/orbe.webp" },
  ] as { name: string; sector: SectorKey; logo: string }[],
  /** Testimonials: quotes are translation text (`home:testimonials.items.{key}`). */
  testimonials: [
    { key: "clinic", name: "Mariana Souza", company: "Clínica Bem Viver", rating: 5 },
    { key: "retail", name: "Ricardo Almeida", company: "Rota Autopeças", rating: 5 },
    { key: "education", name: "Fernanda Lima", company: "Instituto Saber", rating: 5 },
  ],
  /** The Pipefy page's plan table: the same plans (and prices) as the pricing cards, with their packages. */
  planTable: PLAN_TABLE,
  /** Structured data (JSON-LD): offers, validity and rating. */
  structuredData: {
    /** The four plans: the three cards and Enterprise, shown in the pricing section's specialist box. */
    offerPrices: PLAN_TABLE.map((row) => row.price),
    currency: "BRL",
    priceValidUntil: "2027-12-31",
    ratingValue: 4.9,
    ratingCount: 150,
  },
} as const;

/** The monthly price in BRL of a plan (`micro`, `pro`, `premium`); null for any other (the specialist). */
export function planPrice(plan: string): number | null {
  return SITE.plans.find((p) => p.key === plan)?.price ?? null;
}
