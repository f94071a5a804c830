import type { ComponentType } from "react";
import type { Lang } from "../../shared/languages.ts";
import type { Namespace } from "../../shared/i18n.ts";
import type { PageId } from "../../shared/routes.ts";

export interface PageProps {
  lang: Lang;
  page: PageId;
}

/** Translation namespaces each page needs: only these are embedded in its HTML. */
export const PAGE_NAMESPACES: Record<PageId, Namespace[]> = {
  home: ["common", "home", "lead"],
  pipefy: ["common", "pipefy", "lead"],
  trello: ["common", "trello", "home", "lead"],
  customers: ["common", "customers", "lead"],
  terms: ["common", "legal", "lead"],
  privacy: ["common", "legal", "lead"],
  admin: ["common"],
};

/** The not-found page's namespaces: the site's header and footer, and the consent banner. */
export const NOT_FOUND_NAMESPACES: Namespace[] = ["common", "lead"];

/** Which namespace and key prefix hold a page's title, description and keywords. */
export const PAGE_META_KEY: Record<PageId, string> = {
  home: "home:meta",
  pipefy: "pipefy:meta",
  trello: "trello:meta",
  customers: "customers:meta",
  terms: "legal:terms.meta",
  privacy: "legal:privacy.meta",
  admin: "common:admin.meta",
};

/** Pages that show an FAQ, and where its questions live: the FAQ section and the `FAQPage` JSON-LD read it. */
export const PAGE_FAQ_KEY: Partial<Record<PageId, string>> = {
  home: "home:faq.items",
  pipefy: "pipefy:faq.items",
};

export type PageComponent = ComponentType<PageProps>;
