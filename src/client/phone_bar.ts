// The phone's shortcut bar (PhoneBar.tsx) shows once the hero has scrolled away: one observer on the hero
// sets a class on the root; the stylesheet does the rest (phone.css), including hiding the bar while the
// dialog, the consent banner, the menu or a form field is in use.
export function startPhoneBar(): void {
  const hero = document.querySelector("main .hero");
  if (!document.querySelector("[data-phone-bar]") || !hero || !("IntersectionObserver" in globalThis)) return;
  new IntersectionObserver(([entry]) => {
    // Below the hero only: a hero still under the viewport (a page opened at its top) keeps the bar away.
    const past = !entry.isIntersecting && entry.boundingClientRect.bottom <= 0;
    document.documentElement.classList.toggle("phone-bar-on", past);
  }).observe(hero);
}
