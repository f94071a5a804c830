/**
 * docs/PRODUCT.md, _Timings_: an anchor scroll is retried once, 100 ms later, if the target was not there
 * yet.
 */
export const ANCHOR_RETRY_MS = 100;

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Smoothly scrolls to `#id` (instantly under reduced motion), retrying once after 100 ms. */
export function scrollToAnchor(id: string): void {
  // Sections below the first screen are rendered only near the viewport (site.css): render them all first, so
  // that none changes height under the scroll and the target lands where the scroll aims.
  document.documentElement.classList.add("sections-rendered");
  const go = () => {
    const target = document.getElementById(id);
    if (!target) return false;
    target.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "start" });
    return true;
  };
  if (go()) {
    history.pushState(null, "", `#${id}`);
    // Late layout (fonts, images) can move the target while the first scroll runs: aim once more, at the
    // place the first scroll aims for (just under the sticky header, the root's scroll-padding-top).
    setTimeout(() => {
      const target = document.getElementById(id);
      const pad = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
      if (target && Math.abs(target.getBoundingClientRect().top - pad) > 8) go();
    }, ANCHOR_RETRY_MS);
  } else {
    setTimeout(go, ANCHOR_RETRY_MS);
  }
}

/**
 * Click handler for links to an anchor: when the link points at this page, scroll in place instead of
 * reloading. Returns true when it handled the click.
 */
export function handleAnchorClick(event: { preventDefault(): void }, href: string): boolean {
  const url = new URL(href, location.href);
  const samePage = url.pathname.replace(/\/$/, "") === location.pathname.replace(/\/$/, "");
  if (!url.hash || !samePage) return false;
  event.preventDefault();
  scrollToAnchor(url.hash.slice(1));
  return true;
}
