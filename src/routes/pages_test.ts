import assert from "node:assert/strict";
import { appTest } from "../../testing/app.ts";
import { NOT_FOUND, REDIRECTS } from "../shared/routes_fixtures.ts";

const PAGES: [string, string, string][] = [
  ["/pt-br", "pt-BR", "Automação de WhatsApp Business"],
  ["/en", "en", "WhatsApp Business automation"],
  ["/es", "es", "Automatización de WhatsApp Business"],
  ["/pt-br/pipefy-whatsapp-integracao", "pt-BR", "Pipefy"],
  ["/en/pipefy-whatsapp-integracao", "en", "Pipefy"],
  ["/es/pipefy-whatsapp-integracao", "es", "Pipefy"],
  ["/pt-br/trello-whatsapp-integracao", "pt-BR", "Trello"],
  ["/en/trello-whatsapp-integracao", "en", "Trello"],
  ["/es/trello-whatsapp-integracao", "es", "Trello"],
  ["/pt-br/clientes", "pt-BR", "Clientes"],
  ["/en/clientes", "en", "Customers"],
  ["/es/clientes", "es", "Clientes"],
  ["/pt-br/termos-de-uso", "pt-BR", "Termos de Uso"],
  ["/en/terms-of-service", "en", "Terms of Service"],
  ["/es/terminos-de-servicio", "es", "Términos de Servicio"],
  ["/pt-br/politica-privacidade", "pt-BR", "Política de Privacidade"],
  ["/en/privacy-policy", "en", "Privacy Policy"],
  ["/es/politica-de-privacidad", "es", "Política de Privacidad"],
  ["/pt-br/admin", "pt-BR", "Verificando autenticação..."],
  ["/en/admin", "pt-BR", "Verificando autenticação..."],
  ["/es/admin", "pt-BR", "Verificando autenticação..."],
];

appTest("pages: every page renders in its language with hydration data", async (t) => {
  for (const [path, htmlLang, text] of PAGES) {
    const res = await t.request(path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get("content-type")!, /^text\/html/);
    const html = await res.text();
    assert.ok(html.startsWith("<!DOCTYPE html>"), path);
    assert.ok(html.includes(`<html lang="${htmlLang}"`), `${path} lang`);
    assert.ok(html.includes(text), `${path} shows "${text}"`);
    // The bootstrap: preloaded in the head, imported by the hashed loader at the end of the body (on public
    // pages after the early-tap handler, in the same script: no script runs while the head is parsed).
    assert.match(html, /<link rel="modulepreload" href="\/assets\/[a-z]+-TEST\.js"\/>/, path);
    assert.match(
      html,
      /<script>(\(function\(d,w\)[^<]+;)?import\("\/assets\/[a-z]+-TEST\.js"\)<\/script><\/body>/,
      path,
    );
    const head = html.slice(0, html.indexOf("</head>"));
    assert.doesNotMatch(head, /<script>/, `${path}: no script to run in the head`);
    assert.ok(html.includes('id="page-data"'), path);
  }
});

appTest("pages: public pages carry canonical and hreflang alternates; admin is noindex", async (t) => {
  const html = await (await t.request("/en/terms-of-service")).text();
  assert.ok(html.includes('<link rel="canonical" href="http://localhost:8000/en/terms-of-service"/>'));
  assert.ok(html.includes('hrefLang="pt-BR" href="http://localhost:8000/pt-br/termos-de-uso"'));
  assert.ok(html.includes('hrefLang="es" href="http://localhost:8000/es/terminos-de-servicio"'));
  assert.ok(html.includes('hrefLang="x-default" href="http://localhost:8000/pt-br/termos-de-uso"'));
  assert.ok(html.includes('content="index, follow"'));
  const admin = await t.request("/pt-br/admin");
  assert.ok((await admin.text()).includes('content="noindex, nofollow"'));
  assert.equal(admin.headers.get("cache-control"), "no-store");
});

appTest("pages: only the page's own language is embedded, and no locale bundle", async (t) => {
  const html = await (await t.request("/en")).text();
  const data = JSON.parse(html.match(/<script id="page-data"[^>]*>(.*?)<\/script>/)![1]);
  assert.equal(data.lang, "en");
  assert.equal(data.resources, undefined, "islands carry the strings they use in their props");
  // The lead dialog is in the page, closed, with its strings in the page's language only.
  assert.ok(html.includes('<dialog id="lead-dialog"'));
  assert.ok(html.includes("Subscribe to the {{plan}} plan"));
  assert.ok(!html.includes("Automação de WhatsApp Business"));
});

appTest("pages: aliases redirect permanently and keep the query string", async (t) => {
  for (const [from, to] of REDIRECTS) {
    const res = await t.request(`${from}?utm_source=ig&x=1`);
    assert.equal(res.status, 301, from);
    assert.equal(res.headers.get("location"), `${to}?utm_source=ig&x=1`, from);
  }
});

appTest("pages: the root redirects (302) to the detected language with the query", async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{}, "/pt-br"],
    [{ "accept-language": "en-US,en;q=0.9" }, "/en"],
    [{ "accept-language": "es-MX" }, "/es"],
    [{ "cf-ipcountry": "US", "accept-language": "pt-BR" }, "/en"],
    [{ "cf-ipcountry": "AR" }, "/es"],
    [{ "cf-ipcountry": "BR", "accept-language": "en" }, "/pt-br"],
    [{ "cf-ipcountry": "DE", "accept-language": "de" }, "/en"],
    [{ cookie: "lang=es", "cf-ipcountry": "BR" }, "/es"],
  ];
  for (const [headers, to] of cases) {
    const res = await t.request("/?utm_campaign=x", { headers });
    assert.equal(res.status, 302, JSON.stringify(headers));
    assert.equal(res.headers.get("location"), `${to}?utm_campaign=x`, JSON.stringify(headers));
  }
  assert.equal((await t.request("/")).headers.get("location"), "/pt-br");
});

appTest("pages: unknown paths answer 404 with the documented text and never redirect off-site", async (t) => {
  for (const path of [...NOT_FOUND, "/en/nope", "/api-nope", "/pt-br/admin/x"]) {
    const res = await t.request(path);
    assert.equal(res.status, 404, path);
    const html = await res.text();
    assert.ok(html.includes("404 Page Not Found"), path);
    assert.ok(html.includes("Did you forget to add the page to the router?"), path);
  }
  const en = await (await t.request("/en/nope")).text();
  assert.ok(en.includes('<html lang="en"'));
});

appTest("pages: redirect payloads in the query stay on this site", async (t) => {
  for (
    const q of ["?next=//evil.example", "?%0d%0aLocation:%20https://evil.example", "?u=https://evil.example"]
  ) {
    const res = await t.request(`/clientes${q}`);
    assert.equal(res.status, 301);
    const location = res.headers.get("location")!;
    assert.ok(location.startsWith("/pt-br/clientes?"), location);
    assert.equal(new URL(location, "http://localhost:8000").origin, "http://localhost:8000");
  }
});

appTest("pages: HTML is compressed when the client accepts it", async (t) => {
  const res = await t.request("/pt-br", { headers: { "accept-encoding": "gzip" } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-encoding"), "gzip");
});

appTest("pages: unsupported methods on pages answer 405", async (t) => {
  const res = await t.request("/pt-br", { method: "DELETE" });
  assert.equal(res.status, 405);
});

appTest("health: liveness and readiness", async (t) => {
  assert.equal((await t.request("/healthz")).status, 200);
  const ready = await t.request("/readyz");
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), { status: "ready", jobs: {} });
});
