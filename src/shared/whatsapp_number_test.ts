import assert from "node:assert/strict";
import { e164FormsOfWaId, whatsappE164 } from "./whatsapp_number.ts";
import type { Lang } from "./languages.ts";

// Numbers as people type them in the lead form, on the page of each language: the E.164 number a message
// goes to, or null (the card says "número inválido para WhatsApp").
const TABLE: Array<[string, Lang, string | null]> = [
  // Brazil (pt)
  ["(11) 98765-4321", "pt", "+5511987654321"],
  ["11987654321", "pt", "+5511987654321"],
  ["011 98765 4321", "pt", "+5511987654321"],
  ["+55 11 98765-4321", "pt", "+5511987654321"],
  ["0055 11 98765 4321", "pt", "+5511987654321"],
  ["21 9 8888-7777", "pt", "+5521988887777"],
  ["55 11 98765 4321", "pt", "+5511987654321"],
  ["+55 (61) 99999 0000", "pt", "+5561999990000"],
  ["(11) 3456-7890", "pt", null], // a landline
  ["98765-4321", "pt", null], // no area code
  // United States (en)
  ["(415) 555-2671", "en", "+14155552671"],
  ["415.555.2671", "en", "+14155552671"],
  ["+1 415 555 2671", "en", "+14155552671"],
  ["1-415-555-2671", "en", "+14155552671"],
  ["800-555-0199", "en", null], // toll-free
  ["+1 900 555 0100", "en", null], // premium rate
  // Argentina (es)
  ["+54 9 11 2345-6789", "es", "+5491123456789"],
  ["011 15 2345-6789", "es", "+5491123456789"],
  ["+54 11 2345-6789", "es", "+5491123456789"], // without the mobile 9
  ["+5491123456789", "es", "+5491123456789"],
  ["11 2345 6789", "es", "+5491123456789"],
  // Mexico (es)
  ["+52 1 55 1234 5678", "es", "+525512345678"], // the old 1 after 52
  ["+52 55 1234 5678", "es", "+525512345678"],
  ["55 1234 5678", "es", "+525512345678"],
  // Spain (es)
  ["+34 612 34 56 78", "es", "+34612345678"],
  ["612 345 678", "es", "+34612345678"],
  ["0034612345678", "es", "+34612345678"],
  ["+34 91 123 45 67", "es", null], // a Madrid landline
  // Not a number
  ["abc", "pt", null],
  ["+55 11 98765-4321 ou 11 3456-7890 (escritório)", "pt", null],
];

Deno.test("whatsapp number: 30 numbers as people type them, to E.164 when a valid mobile", () => {
  assert.equal(TABLE.length, 30);
  const got = TABLE.map(([typed, lang]) => [typed, lang, whatsappE164(typed, lang)]);
  assert.deepEqual(got, TABLE);
});

Deno.test("whatsapp number: the language decides the region of a number typed without +", () => {
  assert.equal(whatsappE164("(415) 555-2671", "pt"), null);
  assert.equal(whatsappE164("(11) 98765-4321", "en"), null);
  assert.equal(whatsappE164("+55 11 98765-4321", "en"), "+5511987654321");
});

Deno.test("whatsapp number: Meta's wa_id forms", () => {
  assert.deepEqual(e164FormsOfWaId("5511987654321"), ["+5511987654321"]);
  assert.deepEqual(e164FormsOfWaId("5215512345678"), ["+5215512345678", "+525512345678"]);
  assert.deepEqual(e164FormsOfWaId(""), []);
});
