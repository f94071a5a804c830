// Numbers as people type them in the lead form, on a page of each language: wa.me digits, or null (plain
// text) when the number cannot be told for sure.
import assert from "node:assert/strict";
import { langOfPage, whatsappDigits, whatsappHref } from "./whatsapp_link.ts";
import type { Lang } from "./languages.ts";

const TABLE: [typed: string, lang: Lang, digits: string | null][] = [
  // Brazil (pt pages)
  ["(11) 98765-4321", "pt", "5511987654321"],
  ["11987654321", "pt", "5511987654321"],
  ["11 98765 4321", "pt", "5511987654321"],
  ["011 98765-4321", "pt", "5511987654321"],
  ["55 (21) 99876-5432", "pt", "5521998765432"],
  ["+55 11 98765-4321", "pt", "5511987654321"],
  ["(11) 3333-4444", "pt", "551133334444"],
  ["98765-4321", "pt", null],
  ["0800 123 4567", "pt", null],
  ["12345", "pt", null],
  ["não tenho", "pt", null],
  ["", "pt", null],
  // Argentina (es pages): WhatsApp wants 54 9 and the area code.
  ["11 2345-6789", "es", "5491123456789"],
  ["9 11 2345-6789", "es", "5491123456789"],
  ["011 15-2345-6789", "es", "5491123456789"],
  ["+54 9 11 2345-6789", "es", "5491123456789"],
  ["+54 11 2345-6789", "es", "5491123456789"],
  // Mexico
  ["55 1234 5678", "es", "525512345678"],
  ["+52 55 1234 5678", "es", "525512345678"],
  ["+52 1 55 1234 5678", "es", "525512345678"],
  // Spain
  ["612 34 56 78", "es", "34612345678"],
  ["0034 612 345 678", "es", "34612345678"],
  ["+34 612 34 56 78", "es", "34612345678"],
  ["91 123 45 67", "es", "34911234567"],
  // United States (en pages)
  ["(415) 555-2671", "en", "14155552671"],
  ["415-555-2671", "en", "14155552671"],
  ["1 415 555 2671", "en", "14155552671"],
  ["+1 (415) 555-2671", "en", "14155552671"],
  ["555-2671", "en", null],
  // A + number is read as typed, whatever the page's language.
  ["+351 912 345 678", "pt", "351912345678"],
  ["+55 11 98765-4321", "en", "5511987654321"],
  // The same digits mean another country on another page.
  ["(11) 98765-4321", "en", null],
];

Deno.test("whatsapp link: numbers as people type them give wa.me digits or stay plain", () => {
  for (const [typed, lang, digits] of TABLE) {
    assert.equal(whatsappDigits(typed, lang), digits, `${JSON.stringify(typed)} on a ${lang} page`);
  }
  assert.ok(TABLE.length >= 20);
});

Deno.test("whatsapp link: the href is wa.me with the digits, null for a plain number", () => {
  assert.equal(whatsappHref("(11) 98765-4321", "pt"), "https://wa.me/5511987654321");
  assert.equal(whatsappHref("98765-4321", "pt"), null);
});

Deno.test("whatsapp link: the page's language comes from its address or path, pt by default", () => {
  assert.equal(langOfPage("https://example.com/en/pipefy-whatsapp-integracao?utm_source=x"), "en");
  assert.equal(langOfPage("/es"), "es");
  assert.equal(langOfPage("https://example.com/pt-br"), "pt");
  assert.equal(langOfPage(null), "pt");
  assert.equal(langOfPage("https://example.com/"), "pt");
});
