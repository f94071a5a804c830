import assert from "node:assert/strict";
import { detectLang, langFromAcceptLanguage, langFromCountry } from "./languages.ts";

Deno.test("languages: countries map to pt, en and es as the root's language detection lists them", () => {
  assert.equal(langFromCountry("BR"), "pt");
  for (const c of ["US", "UK", "GB", "CA", "AU", "NZ", "IE", "ZA", "SG", "IN"]) {
    assert.equal(langFromCountry(c), "en");
  }
  for (const c of ["ES", "MX", "AR", "CO", "CL", "PE", "UY"]) assert.equal(langFromCountry(c), "es");
  assert.equal(langFromCountry("FR"), null);
});

Deno.test("languages: Accept-Language honours order and q-values", () => {
  assert.equal(langFromAcceptLanguage("fr-FR,es;q=0.8,en;q=0.9"), "en");
  assert.equal(langFromAcceptLanguage("pt-BR,pt;q=0.9"), "pt");
  assert.equal(langFromAcceptLanguage("de,fr"), null);
  assert.equal(langFromAcceptLanguage("x".repeat(10_000)), null);
});

Deno.test("languages: detection order is cookie, country, browser, pt", () => {
  assert.equal(detectLang({ cookie: "es", country: "BR", acceptLanguage: "en" }), "es");
  assert.equal(detectLang({ cookie: "xx", country: "BR", acceptLanguage: "en" }), "pt");
  assert.equal(detectLang({ country: "US", acceptLanguage: "pt-BR" }), "en");
  assert.equal(detectLang({ country: "FR", acceptLanguage: "es-ES" }), "es");
  assert.equal(detectLang({ country: "FR", acceptLanguage: "de" }), "en");
  assert.equal(detectLang({ acceptLanguage: "en-GB" }), "en");
  assert.equal(detectLang({ acceptLanguage: "de" }), "pt");
  assert.equal(detectLang({}), "pt");
});
