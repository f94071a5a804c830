/**
 * Pushes an analytics event (name, category, label) to the tag manager's data layer (docs/PRODUCT.md, _What
 * is tracked and when_).
 */
export function trackEvent(event: string, category: string, label: string): void {
  const w = globalThis as unknown as { dataLayer?: unknown[] };
  w.dataLayer ??= [];
  w.dataLayer.push({ event, event_category: category, event_label: label });
}
