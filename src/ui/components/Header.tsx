import { type MouseEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Lang, LANG_COOKIE, LANG_INFO, LANG_STORAGE_KEY, LANGS } from "../../shared/languages.ts";
import { homeAnchor, type PageId, pagePath } from "../../shared/routes.ts";
import { SITE } from "../../site.ts";
import { trackEvent } from "../../browser/analytics.ts";
import { handleAnchorClick } from "../site/anchors.ts";
import { Icon } from "../site/Icon.tsx";
import { Logo } from "../site/Logo.tsx";
import { Tooltip } from "../site/Tooltip.tsx";

/** Spec section 9: the dropdown closes 150 ms after the pointer leaves; the phone menu 50 ms after a click. */
export const DROPDOWN_CLOSE_MS = 150;
export const MENU_CLOSE_MS = 50;

/** Remembers the visitor's language: local storage (spec) and the cookie the server reads on `/`. */
export function rememberLang(lang: Lang): void {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // Storage can be disabled; the cookie still carries the choice.
  }
  document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax`;
}

/** Site header: logo, navigation, integrations dropdown, language selector, call to action. */
export function Header({ lang, page }: { lang: Lang; page: PageId }) {
  const { t } = useTranslation("common");
  const [menuOpen, setMenuOpen] = useState(false);
  const [dropdownOpen, setDropdownOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const dropdownRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // The query string (UTM and others) follows a language switch. Pages are rendered without it (one cached
  // HTML per page), so the links gain it once the header runs in the browser.
  const [query, setQuery] = useState("");

  useEffect(() => () => clearTimeout(closeTimer.current), []);
  useEffect(() => setQuery(location.search === "?" ? "" : location.search), []);
  useEffect(() => {
    if (!dropdownOpen && !menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      if (dropdownOpen) {
        setDropdownOpen(false);
        toggleRef.current?.focus();
      } else setMenuOpen(false);
    };
    const onPointer = (e: PointerEvent) => {
      if (dropdownRef.current && !dropdownRef.current.contains(e.target as Node)) setDropdownOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [dropdownOpen, menuOpen]);

  // A tap fires mouseenter just before click: the click must not close what the same tap opened.
  const openedByHover = useRef(false);
  const openDropdown = () => {
    clearTimeout(closeTimer.current);
    if (!dropdownOpen) openedByHover.current = true;
    setDropdownOpen(true);
  };
  const closeDropdownSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => {
      openedByHover.current = false;
      setDropdownOpen(false);
    }, DROPDOWN_CLOSE_MS);
  };
  const onToggleClick = () => {
    if (openedByHover.current) {
      openedByHover.current = false;
      setDropdownOpen(true);
      return;
    }
    setDropdownOpen((open) => !open);
  };

  /** Anchor links scroll in place on the home page; on phones the menu closes 50 ms later. */
  const onNavClick = (e: MouseEvent<HTMLAnchorElement>, label: string) => {
    trackEvent("cta_click", "navigation", label);
    const href = e.currentTarget.getAttribute("href") ?? "";
    if (href.includes("#")) {
      handleAnchorClick(e, href);
      setTimeout(() => setMenuOpen(false), MENU_CLOSE_MS);
    }
  };

  return (
    <header className="site-header">
      <div className="container header-row">
        <a className="logo" href={pagePath("home", lang)} aria-label={t("nav.home")}>
          <Logo />
        </a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? "x" : "menu"} />
          <span>{menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}</span>
        </button>
        <nav id="site-nav" className={menuOpen ? "site-nav open" : "site-nav"} aria-label={t("nav.label")}>
          <ul className="nav-links">
            <li>
              <a href={homeAnchor(lang, "funcionalidades")} onClick={(e) => onNavClick(e, "features")}>
                {t("nav.features")}
              </a>
            </li>
            <li>
              <a href={homeAnchor(lang, "precos")} onClick={(e) => onNavClick(e, "pricing")}>
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
              <div
                className={dropdownOpen ? "dropdown open" : "dropdown"}
                ref={dropdownRef}
                onMouseEnter={openDropdown}
                onMouseLeave={closeDropdownSoon}
                onBlur={(e) => {
                  if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropdownOpen(false);
                }}
              >
                <button
                  type="button"
                  ref={toggleRef}
                  className="dropdown-toggle"
                  aria-expanded={dropdownOpen}
                  aria-controls="integrations-menu"
                  onClick={onToggleClick}
                >
                  {t("nav.integrations")}
                  <Icon name="chevron" size={16} />
                </button>
                <ul id="integrations-menu" className="dropdown-menu" hidden={!dropdownOpen}>
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
                      href={pagePath(page, l) + query}
                      hrefLang={LANG_INFO[l].htmlLang}
                      lang={LANG_INFO[l].htmlLang}
                      aria-current={l === lang ? "true" : undefined}
                      onClick={() => rememberLang(l)}
                    >
                      <span aria-hidden="true">{LANG_INFO[l].prefix.slice(0, 2).toUpperCase()}</span>
                      <span className="visually-hidden">{LANG_INFO[l].label}</span>
                    </a>
                  </Tooltip>
                </li>
              ))}
            </ul>
            <a
              className="btn btn-primary"
              href={homeAnchor(lang, "precos")}
              onClick={(e) => onNavClick(e, "header_cta")}
            >
              {t("nav.cta")}
            </a>
          </div>
        </nav>
      </div>
    </header>
  );
}
