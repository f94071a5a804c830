// Brazilian states: the 27 federation units, the DDD (area code) of every Brazilian phone number to its
// state (Anatel's 67 codes), and the state of a lead's WhatsApp number, read like its wa.me link
// (whatsapp_link.ts: as typed with +, else in the country of the page's language, Brazil for Portuguese).
import { whatsappDigits } from "./whatsapp_link.ts";
import { langOfPage } from "./whatsapp_link.ts";
import type { Lang } from "./languages.ts";
import { BR_STATES } from "./br_state_names.ts";

export { BR_STATES };

/** Every DDD in use and its state. */
export const DDD_STATES: Record<string, string> = {
  "11": "SP",
  "12": "SP",
  "13": "SP",
  "14": "SP",
  "15": "SP",
  "16": "SP",
  "17": "SP",
  "18": "SP",
  "19": "SP",
  "21": "RJ",
  "22": "RJ",
  "24": "RJ",
  "27": "ES",
  "28": "ES",
  "31": "MG",
  "32": "MG",
  "33": "MG",
  "34": "MG",
  "35": "MG",
  "37": "MG",
  "38": "MG",
  "41": "PR",
  "42": "PR",
  "43": "PR",
  "44": "PR",
  "45": "PR",
  "46": "PR",
  "47": "SC",
  "48": "SC",
  "49": "SC",
  "51": "RS",
  "53": "RS",
  "54": "RS",
  "55": "RS",
  "61": "DF",
  "62": "GO",
  "64": "GO",
  "63": "TO",
  "65": "MT",
  "66": "MT",
  "67": "MS",
  "68": "AC",
  "69": "RO",
  "71": "BA",
  "73": "BA",
  "74": "BA",
  "75": "BA",
  "77": "BA",
  "79": "SE",
  "81": "PE",
  "87": "PE",
  "82": "AL",
  "83": "PB",
  "84": "RN",
  "85": "CE",
  "88": "CE",
  "86": "PI",
  "89": "PI",
  "91": "PA",
  "93": "PA",
  "94": "PA",
  "92": "AM",
  "97": "AM",
  "95": "RR",
  "96": "AP",
  "98": "MA",
  "99": "MA",
};

/**
 * The state (two-letter code) of a lead's WhatsApp number typed on `page`: a Brazilian number's DDD; null for
 * a foreign number, or one that does not read as one number for sure.
 */
export function leadState(
  whatsapp: string | null | undefined,
  page: string | null | undefined,
): string | null {
  if (!whatsapp) return null;
  const text = whatsapp.trim();
  // The usual forms, read without libphonenumber (a panel reads thousands): "+55 11 98765-4321" anywhere, and
  // "(11) 98765-4321" on a Portuguese page. A DDD in use and a plausible number (a mobile's 9 digits starting
  // with 9, or a landline's 8 starting with 2 to 5) give its state; any other form goes to the full reading.
  const digits = text.replace(/[\s().-]/g, "");
  const national = /^\+55\d{10,11}$/.test(digits)
    ? digits.slice(3)
    : /^\d{10,11}$/.test(digits) && pageLang(page) === "pt"
    ? digits
    : null;
  if (national) {
    const state = DDD_STATES[national.slice(0, 2)];
    const subscriber = national.slice(2);
    if (state && (/^9\d{8}$/.test(subscriber) || /^[2-5]\d{7}$/.test(subscriber))) return state;
  }
  const read = whatsappDigits(text, pageLang(page));
  if (!read || !read.startsWith("55") || read.length < 12) return null;
  return DDD_STATES[read.slice(2, 4)] ?? null;
}

// A list's leads come from a handful of pages: their language is read once each.
const langs = new Map<string, Lang>();
function pageLang(page: string | null | undefined): Lang {
  const key = page ?? "";
  let lang = langs.get(key);
  if (!lang) {
    lang = langOfPage(page);
    if (langs.size >= 1000) langs.clear();
    langs.set(key, lang);
  }
  return lang;
}

// State names as IP databases spell them (with or without accents), to their codes.
const fold = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
const BY_NAME = new Map(Object.entries(BR_STATES).map(([code, name]) => [fold(name), code]));
BY_NAME.set("federal district", "DF");

/** A Brazilian state's code from an IP database's subdivision: an ISO code ("SP", "BR-SP") or a name. */
export function brStateCode(value: string | null | undefined): string | null {
  if (!value) return null;
  const code = value.toUpperCase().replace(/^BR-/, "");
  if (code in BR_STATES) return code;
  return BY_NAME.get(fold(value)) ?? null;
}
