import { DEFAULT_LANG, type Lang, LANG_INFO, LANGS } from "./languages.ts";

/** Every page of the site. The server, the client, the sitemap and the hreflang tags read this table. */
export const PAGES = ["home", "pipefy", "trello", "customers", "terms", "privacy", "admin"] as const;
export type PageId = typeof PAGES[number];

/** Path segment after the language prefix, per page and language. */
const SLUGS: Record<PageId, Record<Lang, string>> = {
  home: { pt: "", en: "", es: "" },
  pipefy: {
    pt: "pipefy-whatsapp-integracao",
    en: "pipefy-whatsapp-integracao",
    es: "pipefy-whatsapp-integracao",
  },
  trello: {
    pt: "trello-whatsapp-integracao",
    en: "trello-whatsapp-integracao",
    es: "trello-whatsapp-integracao",
  },
  customers: { pt: "clientes", en: "clientes", es: "clientes" },
  terms: { pt: "termos-de-uso", en: "terms-of-service", es: "terminos-de-servicio" },
  privacy: { pt: "politica-privacidade", en: "privacy-policy", es: "politica-de-privacidad" },
  admin: { pt: "admin", en: "admin", es: "admin" },
};

/** Pages listed in the sitemap and given hreflang alternates (the admin is not public). */
export const PUBLIC_PAGES: readonly PageId[] = PAGES.filter((p) => p !== "admin");

/** Extra slugs accepted inside a language prefix (and unprefixed) that redirect to a page. */
const ALIASES: Record<string, PageId> = {
  "pipefy-integration": "pipefy",
  "trello-integration": "trello",
  "terms-of-use": "terms",
};

/** Unprefixed slugs that name a language: they redirect into that language. */
const ALIAS_LANG: Record<string, Lang> = { "terms-of-use": "en" };

/** The canonical path of a page in a language: `/pt-br`, `/en/clientes`. */
export function pagePath(page: PageId, lang: Lang): string {
  const slug = SLUGS[page][lang];
  return `/${LANG_INFO[lang].prefix}${slug ? `/${slug}` : ""}`;
}

/**
 * Where the server writes the request's query string in the language switch's links (src/server/render.tsx):
 * a visitor from an ad who switches language without JavaScript keeps the ad's UTM parameters. Random per
 * process, so no page text can contain it; replaced in every response (by nothing when there is no query).
 */
export const QUERY_SLOT = `queryslot${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

/**
 * The language switch's link to a page. The section the visitor is reading goes along as the anchor
 * (src/bundles/header.ts): a section's anchor is the same in every language (`/pt-br/#precos`,
 * `/en/#precos`), so it is carried over as is.
 */
export function switchPath(page: PageId, lang: Lang): string {
  return pagePath(page, lang) + QUERY_SLOT;
}

/** Path of an anchor on the home page, as docs/PRODUCT.md (_Page sections_) writes it: `/pt-br/#precos`. */
export function homeAnchor(lang: Lang, anchor: string): string {
  return `/${LANG_INFO[lang].prefix}/#${anchor}`;
}

function langFromPrefix(segment: string): Lang | null {
  return LANGS.find((l) => LANG_INFO[l].prefix === segment) ?? null;
}

/** Which page and language a slug names, regardless of the language it is written in. */
function pageForSlug(slug: string): { page: PageId; lang: Lang | null } | null {
  for (const page of PAGES) {
    const langs = LANGS.filter((l) => SLUGS[page][l] === slug);
    if (langs.length === LANGS.length) return { page, lang: null }; // same slug everywhere
    if (langs.length > 0) return { page, lang: langs[0] };
  }
  const aliased = ALIASES[slug];
  return aliased ? { page: aliased, lang: ALIAS_LANG[slug] ?? null } : null;
}

export type Resolution =
  | { kind: "page"; page: PageId; lang: Lang }
  | { kind: "redirect"; location: string; status: 301 | 302 }
  | { kind: "root" }
  | { kind: "notFound"; lang: Lang };

/**
 * Resolves a request path. Redirect targets are always built from this table, never from the input,
 * so no path can send a visitor off-site. The caller appends the query string.
 */
export function resolvePath(pathname: string): Resolution {
  if (pathname === "/" || pathname === "") return { kind: "root" };
  const segments = pathname.split("/").slice(1);
  // Only plain segments: anything with an empty segment (`//x`), a backslash or a dot path is not ours.
  const clean = segments.every((s, i) =>
    /^[a-zA-Z0-9-]+$/.test(s) || (s === "" && i === segments.length - 1)
  );
  // The 404 speaks the language of the path's prefix when it has one (`/en/x.php`), else pt.
  if (!clean) return { kind: "notFound", lang: langFromPrefix(segments[0].toLowerCase()) ?? DEFAULT_LANG };
  const trailing = segments.at(-1) === "";
  const parts = trailing ? segments.slice(0, -1) : segments;
  const lowered = parts.map((s) => s.toLowerCase());
  const prefixLang = langFromPrefix(lowered[0]);

  if (prefixLang) {
    if (parts.length === 1) {
      if (parts[0] !== lowered[0]) return permanent(pagePath("home", prefixLang));
      return { kind: "page", page: "home", lang: prefixLang }; // `/pt-br/` is home too (`/pt-br/#precos`)
    }
    if (parts.length !== 2) return { kind: "notFound", lang: prefixLang };
    const target = pageForSlug(lowered[1]);
    if (!target || target.page === "home") return { kind: "notFound", lang: prefixLang };
    const canonical = pagePath(target.page, prefixLang);
    if (canonical === `/${parts.join("/")}` && !trailing) {
      return { kind: "page", page: target.page, lang: prefixLang };
    }
    return permanent(canonical);
  }

  if (parts.length !== 1) return { kind: "notFound", lang: DEFAULT_LANG };
  const target = pageForSlug(lowered[0]);
  if (!target || target.page === "home") return { kind: "notFound", lang: DEFAULT_LANG };
  return permanent(pagePath(target.page, target.lang ?? DEFAULT_LANG));
}

function permanent(location: string): Resolution {
  return { kind: "redirect", location, status: 301 };
}

/** Every public URL with its alternates, for the sitemap and hreflang tags. */
export function alternates(page: PageId): { lang: Lang; path: string }[] {
  return LANGS.map((lang) => ({ lang, path: pagePath(page, lang) }));
}
