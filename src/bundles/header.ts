// The header's behaviour on the server-rendered markup (Header.tsx): phone menu, integrations dropdown and
// language links. Plain DOM: React would buy nothing here and cost the first tap its bundle.
import { type Lang, LANG_COOKIE, LANG_STORAGE_KEY } from "../shared/languages.ts";

/**
 * docs/PRODUCT.md, _Timings_: the dropdown closes 150 ms after the pointer leaves; the phone menu 50 ms after
 * a click.
 */
export const DROPDOWN_CLOSE_MS = 150;
export const MENU_CLOSE_MS = 50;

/**
 * Remembers the visitor's language: local storage (docs/PRODUCT.md, _Pages and routes_) and the cookie the
 * server reads on `/`.
 */
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
  // The section being read when the phone menu opened: what a language chip in it carries over.
  let sectionAtOpen: string | null = null;
  const setMenu = (open: boolean) => {
    if (open && !menuOpen) sectionAtOpen = currentSection();
    menuOpen = open;
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
    document.documentElement.classList.toggle("nav-open", open); // the phone bar steps aside (phone.css)
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
  // A finger has no hover: a menu a tap opened stays open until tapped again or tapped outside, even when the
  // browser sends the mouseleave it emulates (after a scroll, for one).
  let pressedByFinger = false;
  dropdown.addEventListener("pointerdown", (e) => pressedByFinger = e.pointerType !== "mouse");
  dropdown.addEventListener("mouseleave", () => {
    if (pressedByFinger) return;
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

  // A language switch keeps the query string (UTM and others; the server writes it into the links too, for
  // visits without JavaScript) and the place: the section being read goes along as the anchor, the same in
  // every language (shared/routes.ts, switchPath).
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".lang-list a[data-lang]")) {
    link.addEventListener("click", () => {
      rememberLang(link.dataset.lang as Lang);
      const url = new URL(link.href);
      url.search = location.search;
      url.hash = (menuOpen ? sectionAtOpen : currentSection()) ?? "";
      link.href = url.href;
    });
  }
}

/** The id of the section under the sticky header, or null at the top of the page (before any section). */
function currentSection(): string | null {
  const line = (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) + 8;
  let id: string | null = null;
  for (const section of document.querySelectorAll<HTMLElement>("main section[id]")) {
    if (section.getBoundingClientRect().top <= line) id = section.id;
  }
  return id;
}
