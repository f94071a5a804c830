// The phone's shortcut bar (PhoneBar.tsx) shows once the hero has scrolled away: a passive scroll listener,
// one check per frame, sets a class on the root; the stylesheet does the rest (phone.css), including hiding
// the bar while the dialog, the consent banner, the menu or a form field is in use (`field-focus`, set here).
// (An IntersectionObserver on the hero was seen to miss the jump of a page opened at an anchor, `/pt-br/#precos`.)
export function startPhoneBar(): void {
  const hero = document.querySelector("main .hero");
  if (!document.querySelector("[data-phone-bar]") || !hero) return;
  let queued = false;
  const check = () => {
    queued = false;
    document.documentElement.classList.toggle("phone-bar-on", hero.getBoundingClientRect().bottom <= 0);
  };
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(check);
  };
  addEventListener("scroll", queue, { passive: true });
  addEventListener("resize", queue, { passive: true });
  addEventListener("load", queue);
  queue();
  // A form field in use (the keyboard is up on a phone) keeps the bar away too.
  const field = (event: FocusEvent) => event.target instanceof Element && event.target.matches(FIELDS);
  addEventListener("focusin", (event) => {
    if (field(event)) document.documentElement.classList.add("field-focus");
  });
  addEventListener("focusout", (event) => {
    if (field(event)) document.documentElement.classList.remove("field-focus");
  });
}

const FIELDS = "input, textarea, select";
