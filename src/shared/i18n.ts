import i18next, { type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Lang } from "./languages.ts";

/** Translation namespaces: one JSON file each under `locales/{lang}/`. */
export const NAMESPACES = ["common", "home", "pipefy", "trello", "customers", "legal", "lead"] as const;
export type Namespace = typeof NAMESPACES[number];

/** Resources of one language: namespace -> nested keys. */
export type LangResources = Partial<Record<Namespace, Record<string, unknown>>>;

/**
 * Creates an initialised i18next instance (synchronously, from embedded resources). A missing key
 * renders as the key itself, i18next's default (docs/PRODUCT.md, _Pages and routes_).
 */
export function createI18n(lang: Lang, resources: LangResources): i18n {
  const instance = i18next.createInstance();
  instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: resources } as Resource,
    ns: Object.keys(resources),
    defaultNS: "common",
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
    returnObjects: true,
    react: { useSuspense: false },
  });
  return instance;
}
