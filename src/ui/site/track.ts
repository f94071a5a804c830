// Click tracking and in-page anchors without hydration: the server writes what a click means as data
// attributes, and the bootstrap's one delegated click listener (src/bundles/clicks.ts) acts on them.

/**
 * `data-track`: the analytics event (name, category, label) a click on this element pushes (docs/PRODUCT.md,
 * _What is tracked and when_).
 */
export function track(event: string, category: string, label: string): { "data-track": string } {
  return { "data-track": JSON.stringify([event, category, label]) };
}

/**
 * A tracked link that scrolls in place when it points at an anchor of the current page (smooth, one retry
 * after 100 ms: docs/PRODUCT.md, _Timings_) instead of reloading.
 */
export function anchorLink(event: string, category: string, label: string) {
  return { ...track(event, category, label), "data-anchor": "" };
}
