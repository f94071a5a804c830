// Every public page of the site in every language, and what a visitor must find on it.
import { type Lang, LANG_INFO, LANGS } from "../src/shared/languages.ts";
import { type PageId, pagePath, PUBLIC_PAGES } from "../src/shared/routes.ts";

/** Selectors that must exist on each page, in this document order (docs/PRODUCT.md, _Page sections_). */
export const SECTIONS: Record<Exclude<PageId, "admin">, string[]> = {
  home: [
    ".hero",
    "#hero-cta",
    "#funcionalidades",
    "#automacao",
    "#video-demo",
    "#precos",
    "#videos",
    "#depoimentos",
    "#faq",
    "#cta-final",
  ],
  pipefy: [
    ".hero .metric-tiles",
    "#problemas",
    "#video-demo",
    "#tutoriais",
    "#beneficios",
    "#recursos",
    "#como-funciona",
    "#fluxo-completo",
    "#planos",
    "#faq",
    "#contato",
    "#cta-final",
  ],
  trello: [
    ".hero .metric-tiles",
    "#problemas",
    "#video-demo",
    "#tutoriais",
    "#beneficios",
    "#recursos",
    "#como-funciona",
    "#fluxo-completo",
    "#precos",
  ],
  customers: [".hero .badges", ".stats-band", "#clientes", "#cta-final"],
  terms: [".legal-header", "#secao-1", "#secao-7", "#secao-13", ".legal-contact"],
  privacy: [".legal-header", "#secao-1", "#secao-13", ".legal-contact"],
};

/**
 * Counted items: selector -> how many (docs/PRODUCT.md, _Page sections_: six features, six tutorials, 25
 * logos, 13 sections...).
 */
export const COUNTS: Record<Exclude<PageId, "admin">, Record<string, number>> = {
  home: {
    "[data-feature]": 6,
    ".plan-card": 3,
    ".plan-card.highlighted .plan-badge": 1,
    "#faq .faq-item": 6,
  },
  pipefy: {
    "#problemas .pair": 3,
    "#video-demo .highlights li": 3,
    "#tutoriais .video-card": 6,
    "#beneficios .card": 6,
    "#como-funciona .step-cards li": 4,
    "#fluxo-completo .timeline li": 8,
    ".plan-table tbody tr": 4,
    ".plan-table tr.featured": 1,
    "#faq .faq-item": 6,
  },
  trello: {
    "#problemas .pair": 3,
    "#video-demo .highlights li": 3,
    "#tutoriais .video-card": 6,
    "#beneficios .card": 6,
    "#como-funciona .step-cards li": 4,
    "#fluxo-completo .timeline li": 8,
    ".plan-card": 3,
  },
  customers: { ".logo-card": 25, ".stats-grid > div": 4 },
  terms: { ".legal-section": 13 },
  privacy: { ".legal-section": 13 },
};

export interface SitePage {
  page: Exclude<PageId, "admin">;
  lang: Lang;
  path: string;
  htmlLang: string;
}

export const SITE_PAGES: SitePage[] = PUBLIC_PAGES.flatMap((page) =>
  LANGS.map((lang) => ({
    page: page as Exclude<PageId, "admin">,
    lang,
    path: pagePath(page, lang),
    htmlLang: LANG_INFO[lang].htmlLang,
  }))
);
