// A lead's WhatsApp number in E.164 (`+5511987654321`) when it is a valid mobile number, the way the person
// typed it: with + (or an international prefix such as 00) it is read as typed; without, in the country of
// the page's language (Brazil for Portuguese, the United States for English, and for Spanish the one of
// Mexico, Argentina and Spain where it is a valid mobile number; in none or more than one, it is refused).
// "max" metadata checks each country's number plan, not only the length; the same reading as the wa.me link
// (whatsapp_link.ts), but stricter: a landline, toll-free or premium number gets no message.
import { type CountryCode, parsePhoneNumberFromString, type PhoneNumber } from "libphonenumber-js/max";
import type { Lang } from "./languages.ts";

const REGIONS: Record<Lang, CountryCode[]> = {
  pt: ["BR"],
  en: ["US"],
  es: ["MX", "AR", "ES"],
};

// US and Canadian numbers do not tell mobile from landline ("fixed line or mobile"): both may be on WhatsApp.
const MOBILE = new Set(["MOBILE", "FIXED_LINE_OR_MOBILE"]);

function isMobile(phone: PhoneNumber | undefined): boolean {
  return Boolean(phone && phone.isValid() && MOBILE.has(phone.getType() ?? ""));
}

function mobileE164(typed: string, region?: CountryCode): string | null {
  let phone = parsePhoneNumberFromString(typed, region);
  // Mexican mobiles were dialled from abroad with a 1 after 52 until 2019; people still type it.
  if (phone && !phone.isValid() && /^\+521\d{10}$/.test(phone.number)) {
    phone = parsePhoneNumberFromString("+52" + phone.number.slice(4));
  }
  if (!phone) return null;
  // An Argentine mobile typed without its 9 (as on a business card: +54 11 2345-6789) is reached as 54 9 ….
  if (phone.country === "AR" && !isMobile(phone) && !phone.number.startsWith("+549")) {
    const withNine = parsePhoneNumberFromString("+549" + phone.number.slice(3));
    if (withNine && isMobile(withNine)) return withNine.number;
  }
  return isMobile(phone) ? phone.number : null;
}

/** The number in E.164 if it is a valid mobile number typed on a page in `lang`; null otherwise. */
export function whatsappE164(typed: string, lang: Lang): string | null {
  const text = typed.trim();
  if (!/\d/.test(text) || text.length > 40) return null;
  if (text.startsWith("+")) return mobileE164(text);
  // 00 is the international prefix from Spain, Argentina, Mexico (and, with a carrier code, Brazil).
  if (/^00[1-9]/.test(text)) {
    const number = mobileE164(`+${text.slice(2)}`);
    if (number) return number;
  }
  const found = new Set<string>();
  for (const region of REGIONS[lang]) {
    const number = mobileE164(text, region);
    if (number) found.add(number);
  }
  return found.size === 1 ? [...found][0] : null;
}

/** The forms Meta may give a number in a webhook's `from` (digits, no +): +52 1 … and +52 … are one phone. */
export function e164FormsOfWaId(waId: string): string[] {
  const digits = waId.replace(/\D/g, "");
  if (!digits) return [];
  const forms = [`+${digits}`];
  if (/^521\d{10}$/.test(digits)) forms.push(`+52${digits.slice(3)}`);
  return forms;
}
