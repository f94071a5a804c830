// Tooltips (Tooltip.tsx renders them closed): one delegated set of listeners for the whole page.

/** docs/PRODUCT.md, _Timings_: a tooltip opens 700 ms after hover or focus; 300 ms is the skip delay. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_MS = 300;

// Moving from one tooltip to the next (one is open, or closed less than the skip delay ago) opens the next
// at once instead of waiting the full delay again.
let openCount = 0;
let lastClosedAt = -Infinity;
const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();

function tipOf(anchor: Element): HTMLElement | null {
  return anchor.querySelector<HTMLElement>(":scope > [role=tooltip]");
}

function open(anchor: Element): void {
  const tip = tipOf(anchor);
  if (!tip || !tip.hidden) return;
  tip.hidden = false;
  openCount++;
  // Centred on its trigger, but never past the screen's edges (a trigger near the edge of a phone).
  tip.style.removeProperty("--tooltip-shift");
  const { left, right } = tip.getBoundingClientRect();
  const room = document.documentElement.clientWidth - 8;
  const shift = left < 8 ? 8 - left : right > room ? room - right : 0;
  if (shift) tip.style.setProperty("--tooltip-shift", `${Math.round(shift)}px`);
}

function show(anchor: Element): void {
  clearTimeout(timers.get(anchor));
  if (openCount > 0 || Date.now() - lastClosedAt < TOOLTIP_SKIP_MS) open(anchor);
  else timers.set(anchor, setTimeout(() => open(anchor), TOOLTIP_DELAY_MS));
}

function hide(anchor: Element): void {
  clearTimeout(timers.get(anchor));
  const tip = tipOf(anchor);
  if (!tip || tip.hidden) return;
  tip.hidden = true;
  openCount--;
  lastClosedAt = Date.now();
}

/** The tooltip anchor an event concerns, unless it moved within the same anchor. */
function anchorOf(event: Event & { relatedTarget: EventTarget | null }): Element | null {
  const anchor = event.target instanceof Element ? event.target.closest(".tooltip-anchor") : null;
  return anchor && !anchor.contains(event.relatedTarget as Node | null) ? anchor : null;
}

export function startTooltips(): void {
  document.addEventListener("pointerover", (e) => {
    const anchor = anchorOf(e);
    if (anchor && e.pointerType !== "touch") show(anchor);
  });
  document.addEventListener("pointerout", (e) => {
    const anchor = anchorOf(e);
    if (anchor) hide(anchor);
  });
  document.addEventListener("focusin", (e) => {
    const anchor = anchorOf(e);
    if (anchor) show(anchor);
  });
  document.addEventListener("focusout", (e) => {
    const anchor = anchorOf(e);
    if (anchor) hide(anchor);
  });
  // Escape closes what is open, and what was about to open where the key was pressed.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const here = e.target instanceof Element ? e.target.closest(".tooltip-anchor") : null;
    if (here) hide(here);
    for (
      const tip of document.querySelectorAll<HTMLElement>(".tooltip-anchor > [role=tooltip]:not([hidden])")
    ) {
      hide(tip.parentElement!);
    }
  });
}
