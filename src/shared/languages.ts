/** Supported languages, their URL prefixes and the tags used in HTML and Open Graph. */
export const LANGS = ["pt", "en", "es"] as const;
export type Lang = typeof LANGS[number];
export const DEFAULT_LANG: Lang = "pt";

/** `switchHint` is the language button's tooltip, written in that language (it speaks to its readers). */
export const LANG_INFO: Record<
  Lang,
  { prefix: string; htmlLang: string; ogLocale: string; label: string; switchHint: string }
> = {
  pt: {
    prefix: "pt-br",
    htmlLang: "pt-BR",
    ogLocale: "pt_BR",
    label: "Português",
    switchHint: "Ver esta página em português",
  },
  en: {
    prefix: "en",
    htmlLang: "en",
    ogLocale: "en_US",
    label: "English",
    switchHint: "Read this page in English",
  },
  es: {
    prefix: "es",
    htmlLang: "es",
    ogLocale: "es_ES",
    label: "Español",
    switchHint: "Ver esta página en español",
  },
};

/** Local storage key where the browser remembers the visitor's language, product-specific. */
export const LANG_STORAGE_KEY = "zapflow.lang";
/** Cookie the server reads on `/` to honour a language the visitor picked. */
export const LANG_COOKIE = "lang";

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

/** Maps a language tag such as `pt-BR`, `en-US` or `es` to a supported language, if any. */
export function langFromTag(tag: string): Lang | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLang(primary) ? primary : null;
}

const ENGLISH_COUNTRIES = new Set(["US", "UK", "GB", "CA", "AU", "NZ", "IE", "ZA", "SG", "IN"]);
const SPANISH_COUNTRIES = new Set([
  "AR",
  "BO",
  "CL",
  "CO",
  "CR",
  "CU",
  "DO",
  "EC",
  "ES",
  "GQ",
  "GT",
  "HN",
  "MX",
  "NI",
  "PA",
  "PE",
  "PR",
  "PY",
  "SV",
  "UY",
  "VE",
]);

/**
 * docs/PRODUCT.md, _Pages and routes_: Brazil gives pt, the listed English-speaking countries en,
 * Spanish-speaking ones es.
 */
export function langFromCountry(country: string): Lang | null {
  const code = country.trim().toUpperCase();
  if (code === "BR") return "pt";
  if (ENGLISH_COUNTRIES.has(code)) return "en";
  if (SPANISH_COUNTRIES.has(code)) return "es";
  return null;
}

/** The first supported language in an Accept-Language header, honouring q-values. */
export function langFromAcceptLanguage(header: string): Lang | null {
  const ranked = header.slice(0, 1000).split(",").slice(0, 30).map((part, index) => {
    const [tag, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
  }).filter((r) => r.weight > 0).sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const lang = langFromTag(tag);
    if (lang) return lang;
  }
  return null;
}

export interface LangSignals {
  cookie?: string | null;
  country?: string | null;
  acceptLanguage?: string | null;
}

/**
 * Picks the language for `/`: the stored choice, then the visitor's country (a known country that is
 * in none of the lists falls back to the browser language, else en), then the browser language, else pt.
 */
export function detectLang({ cookie, country, acceptLanguage }: LangSignals): Lang {
  if (cookie && isLang(cookie)) return cookie;
  const browser = acceptLanguage ? langFromAcceptLanguage(acceptLanguage) : null;
  if (country && /^[A-Za-z]{2}$/.test(country.trim()) && !/^(XX|T1)$/i.test(country.trim())) {
    return langFromCountry(country) ?? browser ?? "en";
  }
  return browser ?? DEFAULT_LANG;
}
