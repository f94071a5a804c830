// The header's behaviour on the server-rendered markup (Header.tsx): phone menu, integrations dropdown and
// language links. Plain DOM: React would buy nothing here and cost the first tap its bundle.
import { type Lang, LANG_COOKIE, LANG_STORAGE_KEY } from "../shared/languages.ts";

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

export function startHeader(): void {
  const toggle = document.querySelector<HTMLButtonElement>(".menu-toggle");
  const nav = document.getElementById("site-nav");
  const dropdown = document.querySelector<HTMLElement>(".site-header .dropdown");
  const dropdownToggle = dropdown?.querySelector<HTMLButtonElement>(".dropdown-toggle");
  const dropdownMenu = dropdown?.querySelector<HTMLElement>(".dropdown-menu");
  if (!toggle || !nav || !dropdown || !dropdownToggle || !dropdownMenu) return;

  let menuOpen = false;
  const setMenu = (open: boolean) => {
    menuOpen = open;
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
    const label = toggle.querySelector("span");
    if (label) label.textContent = (open ? toggle.dataset.closeLabel : toggle.dataset.openLabel) ?? "";
  };
  toggle.addEventListener("click", () => setMenu(!menuOpen));

  let dropdownOpen = false;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  // A tap fires mouseenter just before click: the click must not close what the same tap opened.
  let openedByHover = false;
  const setDropdown = (open: boolean) => {
    dropdownOpen = open;
    dropdown.classList.toggle("open", open);
    dropdownToggle.setAttribute("aria-expanded", String(open));
    dropdownMenu.hidden = !open;
  };
  dropdown.addEventListener("mouseenter", () => {
    clearTimeout(closeTimer);
    if (!dropdownOpen) openedByHover = true;
    setDropdown(true);
  });
  dropdown.addEventListener("mouseleave", () => {
    clearTimeout(closeTimer);
    closeTimer = setTimeout(() => {
      openedByHover = false;
      setDropdown(false);
    }, DROPDOWN_CLOSE_MS);
  });
  dropdown.addEventListener("focusout", (e) => {
    if (!dropdown.contains(e.relatedTarget as Node | null)) setDropdown(false);
  });
  dropdownToggle.addEventListener("click", () => {
    if (openedByHover) {
      openedByHover = false;
      setDropdown(true);
      return;
    }
    setDropdown(!dropdownOpen);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (dropdownOpen) {
      setDropdown(false);
      dropdownToggle.focus();
    } else if (menuOpen) setMenu(false);
  });
  document.addEventListener("pointerdown", (e) => {
    if (dropdownOpen && !dropdown.contains(e.target as Node)) setDropdown(false);
  });

  // An anchor link in the menu (tracked and scrolled by clicks.ts) closes the phone menu 50 ms later.
  nav.addEventListener("click", (e) => {
    const link = (e.target as Element).closest("a");
    if (link?.getAttribute("href")?.includes("#")) setTimeout(() => setMenu(false), MENU_CLOSE_MS);
  });

  // The query string (UTM and others) follows a language switch. Pages are rendered without it (one cached
  // HTML per page), so the links gain it here.
  const query = location.search === "?" ? "" : location.search;
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".lang-list a[data-lang]")) {
    if (query) link.setAttribute("href", link.getAttribute("href") + query);
    link.addEventListener("click", () => rememberLang(link.dataset.lang as Lang));
  }
}
