import { type LangResources, NAMESPACES } from "../shared/i18n.ts";
import { type Lang, LANGS } from "../shared/languages.ts";

/** Every translation file, read once at start. */
export type Locales = Record<Lang, LangResources>;

const LOCALES_DIR = new URL("../../locales/", import.meta.url);

/**
 * Reads the translation files under `locales/`: one folder per language, one JSON file per namespace that
 * src/shared/i18n.ts lists. A missing file is an error.
 */
export async function loadLocales(dir: URL = LOCALES_DIR): Promise<Locales> {
  const entries = await Promise.all(LANGS.map(async (lang) => {
    const namespaces = await Promise.all(NAMESPACES.map(async (ns) => {
      const text = await Deno.readTextFile(new URL(`${lang}/${ns}.json`, dir));
      return [ns, JSON.parse(text)] as const;
    }));
    return [lang, Object.fromEntries(namespaces)] as const;
  }));
  return Object.fromEntries(entries) as Locales;
}
