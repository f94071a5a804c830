// Paths shared by the route-table tests and the HTTP tests.

/** Alias or wrong slug -> canonical page path. */
export const REDIRECTS: [string, string][] = [
  ["/pipefy-whatsapp-integracao", "/pt-br/pipefy-whatsapp-integracao"],
  ["/pipefy-integration", "/pt-br/pipefy-whatsapp-integracao"],
  ["/trello-whatsapp-integracao", "/pt-br/trello-whatsapp-integracao"],
  ["/trello-integration", "/pt-br/trello-whatsapp-integracao"],
  ["/clientes", "/pt-br/clientes"],
  ["/admin", "/pt-br/admin"],
  ["/termos-de-uso", "/pt-br/termos-de-uso"],
  ["/terms-of-use", "/en/terms-of-service"],
  ["/terms-of-service", "/en/terms-of-service"],
  ["/terminos-de-servicio", "/es/terminos-de-servicio"],
  ["/politica-privacidade", "/pt-br/politica-privacidade"],
  ["/privacy-policy", "/en/privacy-policy"],
  ["/politica-de-privacidad", "/es/politica-de-privacidad"],
  ["/en/pipefy-integration", "/en/pipefy-whatsapp-integracao"],
  ["/es/trello-integration", "/es/trello-whatsapp-integracao"],
  ["/pt-br/pipefy-integration", "/pt-br/pipefy-whatsapp-integracao"],
  ["/en/termos-de-uso", "/en/terms-of-service"],
  ["/en/terms-of-use", "/en/terms-of-service"],
  ["/es/politica-privacidade", "/es/politica-de-privacidad"],
  ["/pt-br/privacy-policy", "/pt-br/politica-privacidade"],
  ["/pt-br/terminos-de-servicio", "/pt-br/termos-de-uso"],
  ["/en/clientes/", "/en/clientes"],
  ["/PT-BR", "/pt-br"],
];

/** Paths that must answer 404, including off-site redirect tricks. */
export const NOT_FOUND = [
  "/nope",
  "/pt-br/nope",
  "/en/clientes/extra",
  "//evil.example",
  "//evil.example/pt-br",
  "/\\evil.example",
  "/%2F%2Fevil.example",
  "/%5Cevil.example",
  "/pt-br/..%2F..%2Fetc",
  "/fr",
  "/pt-br//clientes",
];
