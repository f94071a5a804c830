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
  home: ["common", "home"],
  pipefy: ["common", "pipefy"],
  trello: ["common", "trello", "home"],
  customers: ["common", "customers"],
  terms: ["common", "legal"],
  privacy: ["common", "legal"],
  admin: ["common"],
};

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

export type PageComponent = ComponentType<PageProps>;
