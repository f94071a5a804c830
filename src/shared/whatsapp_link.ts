// A lead's WhatsApp number as a wa.me link: the digits of the number in international form (country code,
// no +, no punctuation), read the way the person typed it. A number typed with + (or an international
// prefix such as 00) is read as typed; one without is read in the country of the page's language: Brazil for
// Portuguese, the United States for English, and for Spanish the one of Mexico, Argentina and Spain where it
// is a valid number (in none, or in more than one, it stays plain text: a link to a stranger is worse than
// none). "max" metadata: it checks each country's number plan, not only the length.
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { LANG_INFO, type Lang, LANGS } from "./languages.ts";

const REGIONS: Record<Lang, CountryCode[]> = {
  pt: ["BR"],
  en: ["US"],
  es: ["MX", "AR", "ES"],
};

// Numbers a person can have WhatsApp on (toll-free, premium-rate and the like cannot).
const REACHABLE = new Set(["MOBILE", "FIXED_LINE", "FIXED_LINE_OR_MOBILE", "VOIP", "PERSONAL_NUMBER"]);

/** The number's digits with its country code if it is a valid number someone can have WhatsApp on. */
function digitsOf(typed: string, region?: CountryCode): string | null {
  let phone = parsePhoneNumberFromString(typed, region);
  // Mexican mobiles were dialled from abroad with a 1 after 52 until 2019; people still type it.
  if (phone && !phone.isValid() && /^\+521\d{10}$/.test(phone.number)) {
    phone = parsePhoneNumberFromString("+52" + phone.number.slice(4));
  }
  if (!phone || !phone.isValid()) return null;
  const type = phone.getType();
  if (type && !REACHABLE.has(type)) return null;
  const digits = phone.number.slice(1);
  // WhatsApp reaches an Argentine number as a mobile: 54, then 9, then the area code and number.
  if (phone.country === "AR" && !digits.startsWith("549")) return "549" + digits.slice(2);
  return digits;
}

/**
 * The digits wa.me wants for a number typed on a page in `lang` (country code first), or null when it cannot
 * be told for sure.
 */
export function whatsappDigits(typed: string, lang: Lang): string | null {
  const text = typed.trim();
  if (!/\d/.test(text) || text.length > 40) return null;
  if (text.startsWith("+")) return digitsOf(text);
  const found = new Set<string>();
  for (const region of REGIONS[lang]) {
    const digits = digitsOf(text, region);
    if (digits) found.add(digits);
  }
  return found.size === 1 ? [...found][0] : null;
}

/** `https://wa.me/<digits>` for a typed number, or null (show it as plain text). */
export function whatsappHref(typed: string, lang: Lang): string | null {
  const digits = whatsappDigits(typed, lang);
  return digits ? `https://wa.me/${digits}` : null;
}

/** The language of the page a lead was sent from (its address or path), Portuguese when it says none. */
export function langOfPage(page: string | null | undefined): Lang {
  if (!page) return "pt";
  let path = page;
  try {
    path = new URL(page, "http://localhost").pathname;
  } catch {
    // not an address: read it as a path
  }
  const first = path.split("/")[1]?.toLowerCase() ?? "";
  return LANGS.find((lang) => LANG_INFO[lang].prefix === first) ?? "pt";
}
