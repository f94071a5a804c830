import assert from "node:assert/strict";
import { LANGS } from "./languages.ts";
import { pagePath, PAGES as PAGE_IDS, resolvePath } from "./routes.ts";
import { NOT_FOUND, REDIRECTS } from "./routes_fixtures.ts";

const PAGES: [string, string, string][] = [
  ["/pt-br", "home", "pt"],
  ["/pt-br/", "home", "pt"],
  ["/en", "home", "en"],
  ["/es", "home", "es"],
  ["/pt-br/pipefy-whatsapp-integracao", "pipefy", "pt"],
  ["/en/pipefy-whatsapp-integracao", "pipefy", "en"],
  ["/es/trello-whatsapp-integracao", "trello", "es"],
  ["/pt-br/clientes", "customers", "pt"],
  ["/en/clientes", "customers", "en"],
  ["/es/admin", "admin", "es"],
  ["/pt-br/termos-de-uso", "terms", "pt"],
  ["/en/terms-of-service", "terms", "en"],
  ["/es/terminos-de-servicio", "terms", "es"],
  ["/pt-br/politica-privacidade", "privacy", "pt"],
  ["/en/privacy-policy", "privacy", "en"],
  ["/es/politica-de-privacidad", "privacy", "es"],
];

Deno.test("routes: every page of every language resolves", () => {
  for (const [path, page, lang] of PAGES) {
    assert.deepEqual(resolvePath(path), { kind: "page", page, lang }, path);
  }
});

Deno.test("routes: aliases and wrong-language slugs redirect permanently", () => {
  for (const [from, to] of REDIRECTS) {
    assert.deepEqual(resolvePath(from), { kind: "redirect", location: to, status: 301 }, from);
  }
});

Deno.test("routes: unknown paths and off-site tricks are not found", () => {
  for (const path of NOT_FOUND) assert.equal(resolvePath(path).kind, "notFound", path);
});

Deno.test("routes: a not-found path speaks its prefix's language, else pt", () => {
  const cases: [string, string][] = [
    ["/nope", "pt"],
    ["/en/nope", "en"],
    ["/es/a/b/c", "es"],
    ["/EN/x.php", "en"],
    ["/es//clientes", "es"],
    ["/fr/nope", "pt"],
    ["//evil.example/en", "pt"],
  ];
  for (const [path, lang] of cases) assert.deepEqual(resolvePath(path), { kind: "notFound", lang }, path);
});

Deno.test("routes: the root is resolved by language detection", () => {
  assert.deepEqual(resolvePath("/"), { kind: "root" });
});

// The language selector links each language to pagePath(page, lang) of the page it is on (Header.tsx).
Deno.test("routes: switching language keeps the page", () => {
  assert.equal(pagePath("terms", "en"), "/en/terms-of-service");
  assert.equal(pagePath("customers", "es"), "/es/clientes");
  assert.equal(pagePath("home", "pt"), "/pt-br");
  for (const page of PAGE_IDS) {
    for (const lang of LANGS) {
      assert.deepEqual(resolvePath(pagePath(page, lang)), { kind: "page", page, lang }, `${page} ${lang}`);
    }
  }
});
