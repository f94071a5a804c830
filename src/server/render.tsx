import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import type { Context } from "hono";
import type { i18n } from "i18next";
import { createI18n, type LangResources, type Namespace } from "../shared/i18n.ts";
import { type Lang, LANG_INFO, LANGS } from "../shared/languages.ts";
import { alternates, type PageId, pagePath, PUBLIC_PAGES, QUERY_SLOT } from "../shared/routes.ts";
import { gzipSync } from "node:zlib";
import { whatsappConfigured } from "../services/whatsapp.ts";
import { type PageData, type PublicConfig, serializePageData } from "../shared/page_data.ts";
import { ogImagePath } from "../shared/og_image.ts";
import { SITE } from "../site.ts";
import { EARLY_TAP_SCRIPT } from "../ui/early_tap.ts";
import { Document, type HeadMeta } from "../ui/Document.tsx";
import {
  NOT_FOUND_NAMESPACES,
  PAGE_FAQ_KEY,
  PAGE_META_KEY,
  PAGE_NAMESPACES,
  type PageComponent,
} from "../ui/pages/registry.ts";
import { PageRoot } from "../ui/PageRoot.tsx";
import NotFoundPage from "../ui/pages/NotFoundPage.tsx";
import AdminApp from "../ui/admin/AdminApp.tsx";
import HomePage from "../ui/pages/HomePage.tsx";
import PipefyPage from "../ui/pages/PipefyPage.tsx";
import TrelloPage from "../ui/pages/TrelloPage.tsx";
import CustomersPage from "../ui/pages/CustomersPage.tsx";
import LegalPage from "../ui/pages/LegalPage.tsx";
import type { AppDeps, AppEnv } from "./env.ts";
import { log } from "../core/log.ts";
import { acceptsGzip, type StaticPage, staticPage } from "../core/static_page.ts";
import { type FaqItem, structuredData } from "./structured_data.ts";

const PUBLIC_COMPONENTS: Record<Exclude<PageId, "admin">, PageComponent> = {
  home: HomePage,
  pipefy: PipefyPage,
  trello: TrelloPage,
  customers: CustomersPage,
  terms: LegalPage,
  privacy: LegalPage,
};

/** One i18next instance per language and page namespaces: resources are static, so instances are reusable. */
const i18nCache = new WeakMap<AppDeps["locales"], Map<string, i18n>>();

function i18nFor(deps: AppDeps, lang: Lang, name: string, namespaces: readonly Namespace[]) {
  let byKey = i18nCache.get(deps.locales);
  if (!byKey) i18nCache.set(deps.locales, byKey = new Map());
  const key = `${lang}:${name}`;
  let entry = byKey.get(key);
  if (!entry) {
    const all = deps.locales[lang];
    const resources: LangResources = Object.fromEntries(namespaces.map((ns) => [ns, all[ns] ?? {}]));
    entry = createI18n(lang, resources);
    byKey.set(key, entry);
  }
  return entry;
}

function headFor(deps: AppDeps, lang: Lang, page: PageId, t: i18n["t"]): HeadMeta {
  const origin = deps.config.PUBLIC_ORIGIN;
  const metaKey = PAGE_META_KEY[page];
  const isPublic = PUBLIC_PAGES.includes(page);
  const text = (k: string) => String(t(`${metaKey}.${k}`));
  const faqKey = PAGE_FAQ_KEY[page];
  const faq = faqKey ? t(faqKey, { returnObjects: true }) as unknown as FaqItem[] : undefined;
  return {
    jsonLd: isPublic
      ? structuredData(page, lang, origin, {
        title: text("title"),
        description: text("description"),
        faq: Array.isArray(faq) ? faq : undefined,
      })
      : undefined,
    title: `${text("title")} | ${SITE.brand}`,
    description: text("description"),
    keywords: isPublic ? text("keywords") : undefined,
    canonical: isPublic ? origin + pagePath(page, lang) : undefined,
    robots: isPublic ? "index, follow" : "noindex, nofollow",
    ogLocale: LANG_INFO[lang].ogLocale,
    ogLocaleAlternates: LANGS.filter((l) => l !== lang).map((l) => LANG_INFO[l].ogLocale),
    ogImage: origin + ogImagePath(lang),
    siteName: SITE.brand,
    alternates: isPublic
      ? [
        ...alternates(page).map((a) => ({ hrefLang: LANG_INFO[a.lang].htmlLang, href: origin + a.path })),
        { hrefLang: "x-default", href: origin + pagePath(page, "pt") },
      ]
      : [],
  };
}

/**
 * Rendered pages, per app and key, as static bytes (src/core/static_page.ts). Nothing in a page depends on the
 * request: only on the page, the language, the build and the configuration (all fixed per process) and the
 * year the footer prints, which is part of the key. Bounded by the number of pages × languages.
 */
const templates = new WeakMap<AppDeps, Map<string, Promise<PageTemplate>>>();

/**
 * A rendered page: the template served when the request has no query string, and, when the page has a
 * language switch, its HTML with the query slot kept (src/shared/routes.ts, QUERY_SLOT) for requests that have one.
 */
type PageTemplate = StaticPage & { withQuerySlot: string | null };

function cachedTemplate(deps: AppDeps, key: string, element: () => ReactNode): Promise<PageTemplate> {
  let byKey = templates.get(deps);
  if (!byKey) templates.set(deps, byKey = new Map());
  const full = `${key}:${new Date().getFullYear()}`;
  let entry = byKey.get(full);
  if (!entry) {
    if (byKey.size >= 100) byKey.clear(); // only after a change of year
    entry = renderTemplate(element());
    byKey.set(full, entry);
    // A failed render is not kept: the next request tries again.
    entry.catch(() => byKey.delete(full));
  }
  return entry;
}

async function renderTemplate(element: ReactNode): Promise<PageTemplate> {
  let failed: unknown;
  const body = await renderToReadableStream(element, {
    onError(error) {
      failed ??= error;
      log.error("render error", { error: String(error), stack: (error as Error)?.stack });
    },
  });
  await body.allReady; // complete HTML for crawlers and a correct status; pages have no suspense waits
  const html = await new Response(body).text();
  if (failed) throw failed; // never cache a page React had to patch over
  const slotted = html.includes(QUERY_SLOT);
  return { ...staticPage(html.replaceAll(QUERY_SLOT, "")), withQuerySlot: slotted ? html : null };
}

/** Longer query strings are not copied into the page (the links then go without them). */
const MAX_SWITCH_QUERY = 2048;

/** The query string as it goes into an HTML attribute. */
function escapeAttribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(
    ">",
    "&gt;",
  );
}

/** The page's bytes, gzip when the client takes it (compressed once, see above); the CSP gets its hashes. */
function respond(c: Context<AppEnv>, template: PageTemplate, status: number): Response {
  c.set("scriptHashes", template.scriptHashes);
  const gzip = acceptsGzip(c.req.header("accept-encoding"));
  const search = new URL(c.req.url).search;
  let body: Uint8Array<ArrayBuffer>;
  if (template.withQuerySlot && search.length > 1 && search.length <= MAX_SWITCH_QUERY) {
    // A visit with a query string (an ad's UTM parameters): the language links carry it, so switching
    // language without JavaScript keeps it. Only these responses are assembled and compressed here.
    const html = template.withQuerySlot.replaceAll(QUERY_SLOT, escapeAttribute(search));
    const bytes = new TextEncoder().encode(html);
    body = gzip ? new Uint8Array(gzipSync(bytes, { level: 6 })) : bytes;
  } else {
    body = gzip ? template.gzip : template.html;
  }
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "content-length": String(body.byteLength),
    vary: "accept-encoding",
  });
  if (gzip) headers.set("content-encoding", "gzip");
  return new Response(c.req.method === "HEAD" ? null : body, { status, headers });
}

/** Server-renders a page in a language through the real pipeline, ready to hydrate. */
export async function renderPage(c: Context<AppEnv>, page: PageId, lang: Lang): Promise<Response> {
  const deps = c.get("deps");
  const template = await cachedTemplate(deps, `page:${page}:${lang}`, () => pageElement(deps, page, lang));
  return respond(c, template, 200);
}

function publicConfig(deps: AppDeps): PublicConfig {
  return {
    metaPixelId: deps.config.META_PIXEL_ID ?? null,
    gtmId: deps.config.GTM_ID ?? null,
    consentMode: deps.config.CONSENT_MODE,
    analyticsTimeZone: deps.config.ANALYTICS_TZ,
    whatsappConsent: whatsappConfigured(deps.config),
  };
}

function pageElement(deps: AppDeps, page: PageId, lang: Lang): ReactNode {
  const i18n = i18nFor(deps, lang, page, PAGE_NAMESPACES[page]);
  const isAdmin = page === "admin";
  // Every public page loads the same small bootstrap (src/bundles/entries/site.ts); islands load on demand.
  const entry = deps.assets.entry(isAdmin ? "admin" : "site");
  const styles = deps.assets.entry("styles").css;
  const pageStyles = isAdmin ? entry.css : [...styles, ...entry.css]; // the admin bundle carries its own src/ui/styles/base.css
  const meta = headFor(deps, lang, page, i18n.t);
  const data: PageData = { lang, page, config: publicConfig(deps) };
  const root = isAdmin
    ? <AdminApp />
    : <PageRoot i18n={i18n} Page={PUBLIC_COMPONENTS[page]} lang={lang} page={page} config={data.config} />;
  return (
    <Document
      htmlLang={isAdmin ? "pt-BR" : LANG_INFO[lang].htmlLang}
      meta={meta}
      styles={pageStyles}
      inlineCss={isAdmin ? undefined : deps.assets.inlineCss(pageStyles)}
      fonts={isAdmin ? undefined : deps.assets.entry("styles").fonts}
      script={entry.js}
      inlineScript={isAdmin ? undefined : EARLY_TAP_SCRIPT}
      preloads={entry.imports}
      pageData={serializePageData(data)}
    >
      {root}
    </Document>
  );
}

/** The not-found page: status 404, inside the site's header and footer. */
export async function renderNotFound(c: Context<AppEnv>, lang: Lang): Promise<Response> {
  const deps = c.get("deps");
  const template = await cachedTemplate(deps, `404:${lang}`, () => notFoundElement(deps, lang));
  return respond(c, template, 404);
}

function notFoundElement(deps: AppDeps, lang: Lang): ReactNode {
  const i18n = i18nFor(deps, lang, "notFound", NOT_FOUND_NAMESPACES);
  const entry = deps.assets.entry("site");
  const styles = deps.assets.entry("styles");
  const config = publicConfig(deps);
  const meta: HeadMeta = {
    title: `404 Page Not Found | ${SITE.brand}`,
    description: String(i18n.t("common:notFound.title")),
    robots: "noindex, nofollow",
    ogLocale: LANG_INFO[lang].ogLocale,
    ogLocaleAlternates: [],
    siteName: SITE.brand,
    alternates: [],
  };
  // The same bootstrap as any page (the header's menu and language choice need it), without the visit
  // beacon: the header and footer lead the visitor back into the site.
  return (
    <Document
      htmlLang={LANG_INFO[lang].htmlLang}
      meta={meta}
      styles={[...styles.css, ...entry.css]}
      inlineCss={deps.assets.inlineCss([...styles.css, ...entry.css])}
      fonts={styles.fonts}
      script={entry.js}
      preloads={entry.imports}
      pageData={serializePageData({ lang, page: "home", visit: false, config })}
    >
      <PageRoot i18n={i18n} Page={NotFoundPage} lang={lang} page="home" config={config} />
    </Document>
  );
}
