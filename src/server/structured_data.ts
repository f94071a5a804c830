import type { Lang } from "../shared/languages.ts";
import { LANG_INFO } from "../shared/languages.ts";
import { type PageId, pagePath } from "../shared/routes.ts";
import { ogImagePath } from "../shared/og_image.ts";
import { SITE } from "../site.ts";

export interface FaqItem {
  q: string;
  a: string;
}

/**
 * JSON-LD structured data for a public page, from the site's facts in src/site.ts and the page's copy in
 * locales/. The home page describes the software with its four offers and rating; the integration pages
 * describe the integration with its free trial; every page names the company; a page that shows an FAQ adds
 * it as `FAQPage` (same questions and answers as on screen).
 */
export function structuredData(
  page: PageId,
  lang: Lang,
  origin: string,
  text: { title: string; description: string; faq?: FaqItem[] },
): unknown[] {
  const blocks = pageBlocks(page, lang, origin, text);
  if (text.faq?.length) blocks.push(faqPage(text.faq, lang, origin + pagePath(page, lang)));
  return blocks;
}

function faqPage(items: FaqItem[], lang: Lang, url: string) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    url,
    inLanguage: LANG_INFO[lang].htmlLang,
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.q,
      acceptedAnswer: { "@type": "Answer", text: item.a },
    })),
  };
}

function pageBlocks(
  page: PageId,
  lang: Lang,
  origin: string,
  text: { title: string; description: string },
): unknown[] {
  const sd = SITE.structuredData;
  const organization = {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: SITE.brand,
    legalName: SITE.legalName,
    url: origin + pagePath("home", lang),
    logo: `${origin}/favicon.svg`,
    email: SITE.contactEmail,
    telephone: SITE.phoneE164,
    address: {
      "@type": "PostalAddress",
      streetAddress: SITE.address,
      addressLocality: "São Paulo",
      addressRegion: "SP",
      addressCountry: "BR",
    },
    sameAs: Object.values(SITE.social),
  };
  const rating = {
    "@type": "AggregateRating",
    ratingValue: sd.ratingValue,
    ratingCount: sd.ratingCount,
    bestRating: 5,
    worstRating: 1,
  };
  const url = origin + pagePath(page, lang);
  if (page === "home") {
    return [organization, {
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: SITE.brand,
      description: text.description,
      url,
      inLanguage: LANG_INFO[lang].htmlLang,
      applicationCategory: "BusinessApplication",
      operatingSystem: "Web",
      image: origin + ogImagePath(lang),
      offers: sd.offerPrices.map((price) => ({
        "@type": "Offer",
        price,
        priceCurrency: sd.currency,
        priceValidUntil: sd.priceValidUntil,
        availability: "https://schema.org/InStock",
        url: `${url}/#precos`,
      })),
      aggregateRating: rating,
    }];
  }
  if (page === "pipefy" || page === "trello") {
    return [organization, {
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: text.title,
      description: text.description,
      url,
      inLanguage: LANG_INFO[lang].htmlLang,
      applicationCategory: "BusinessApplication",
      operatingSystem: "Web",
      offers: {
        "@type": "Offer",
        price: 0,
        priceCurrency: sd.currency,
        priceValidUntil: sd.priceValidUntil,
        description: "Free Trial Available",
        availability: "https://schema.org/InStock",
      },
      aggregateRating: rating,
    }];
  }
  return [organization];
}
