import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Lang, LANG_INFO, LANGS } from "../../shared/languages.ts";
import { homeAnchor, type PageId, pagePath } from "../../shared/routes.ts";
import { SITE } from "../../site.ts";

/** Site header: logo, navigation, language selector, call to action; a collapsible menu on phones. */
export function Header({ lang, page }: { lang: Lang; page: PageId }) {
  const { t } = useTranslation("common");
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="site-header">
      <div className="container header-row">
        <a className="logo" href={pagePath("home", lang)}>{SITE.brand}</a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
        </button>
        <nav id="site-nav" className={menuOpen ? "site-nav open" : "site-nav"} aria-label={t("nav.label")}>
          <a href={homeAnchor(lang, "funcionalidades")}>{t("nav.features")}</a>
          <a href={homeAnchor(lang, "precos")}>{t("nav.pricing")}</a>
          <a href={pagePath("customers", lang)}>{t("nav.customers")}</a>
          <a href={pagePath("pipefy", lang)}>Pipefy</a>
          <a href={pagePath("trello", lang)}>Trello</a>
          <a href={SITE.loginUrl} target="_blank" rel="noopener noreferrer">{t("nav.login")}</a>
          <ul className="lang-list" aria-label={t("nav.language")}>
            {LANGS.map((l) => (
              <li key={l}>
                <a href={pagePath(page, l)} hrefLang={LANG_INFO[l].htmlLang} aria-current={l === lang}>
                  {LANG_INFO[l].label}
                </a>
              </li>
            ))}
          </ul>
          <a className="btn btn-primary" href={homeAnchor(lang, "precos")}>{t("nav.cta")}</a>
        </nav>
      </div>
    </header>
  );
}
