import { useTranslation } from "react-i18next";
import { type Lang, LANG_INFO, LANGS } from "../../shared/languages.ts";
import { homeAnchor, type PageId, pagePath, switchPath } from "../../shared/routes.ts";
import { SITE } from "../../site.ts";
import { anchorLink } from "../site/track.ts";
import { Icon } from "../site/Icon.tsx";
import { Logo } from "../site/Logo.tsx";
import { Tooltip } from "../site/Tooltip.tsx";

/** Site header: logo, navigation, integrations dropdown, language selector, call to action. Server-rendered
 * as it first shows; the bootstrap's header code (src/bundles/header.ts) opens the menu and the dropdown. */
export function Header({ lang, page }: { lang: Lang; page: PageId }) {
  const { t } = useTranslation("common");
  const nav = (label: string) => anchorLink("cta_click", "navigation", label);

  return (
    <header className="site-header">
      <div className="container header-row">
        <a className="logo" href={pagePath("home", lang)} aria-label={t("nav.home")}>
          <Logo />
        </a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded="false"
          aria-controls="site-nav"
          data-open-label={t("nav.openMenu")}
          data-close-label={t("nav.closeMenu")}
        >
          <Icon name="menu" className="menu-icon-closed" />
          <Icon name="x" className="menu-icon-open" />
          <span>{t("nav.openMenu")}</span>
        </button>
        <nav id="site-nav" className="site-nav" aria-label={t("nav.label")}>
          <ul className="nav-links">
            <li>
              <a href={homeAnchor(lang, "funcionalidades")} {...nav("features")}>
                {t("nav.features")}
              </a>
            </li>
            <li>
              <a href={homeAnchor(lang, "precos")} {...nav("pricing")}>
                {t("nav.pricing")}
              </a>
            </li>
            <li>
              <a
                href={pagePath("customers", lang)}
                aria-current={page === "customers" ? "page" : undefined}
              >
                {t("nav.customers")}
              </a>
            </li>
            <li>
              <div className="dropdown">
                <button
                  type="button"
                  className="dropdown-toggle"
                  aria-expanded="false"
                  aria-controls="integrations-menu"
                >
                  {t("nav.integrations")}
                  <Icon name="chevron" size={16} />
                </button>
                <ul id="integrations-menu" className="dropdown-menu" hidden>
                  {(["pipefy", "trello"] as const).map((p) => (
                    <li key={p}>
                      <a href={pagePath(p, lang)} aria-current={page === p ? "page" : undefined}>
                        <strong>{t(`nav.${p}`)}</strong>
                        <span>{t(`nav.${p}Hint`)}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            </li>
            <li>
              <a href={SITE.loginUrl} target="_blank" rel="noopener noreferrer">
                {t("nav.login")} <span className="visually-hidden">{t("nav.newTab")}</span>
              </a>
            </li>
          </ul>
          <div className="nav-actions">
            <ul className="lang-list" aria-label={t("nav.language")}>
              {LANGS.map((l) => (
                <li key={l}>
                  <Tooltip text={LANG_INFO[l].switchHint} lang={LANG_INFO[l].htmlLang} placement="bottom">
                    <a
                      href={switchPath(page, l)}
                      hrefLang={LANG_INFO[l].htmlLang}
                      lang={LANG_INFO[l].htmlLang}
                      aria-current={l === lang ? "true" : undefined}
                      data-lang={l}
                    >
                      <span aria-hidden="true">{LANG_INFO[l].prefix.slice(0, 2).toUpperCase()}</span>
                      <span className="visually-hidden">{LANG_INFO[l].label}</span>
                    </a>
                  </Tooltip>
                </li>
              ))}
            </ul>
            <a className="btn btn-primary" href={homeAnchor(lang, "precos")} {...nav("header_cta")}>
              {t("nav.cta")}
            </a>
          </div>
        </nav>
      </div>
    </header>
  );
}
