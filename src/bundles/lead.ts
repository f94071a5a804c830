// Pricing buttons: server-rendered as links to /go/checkout (or WhatsApp), which is where they lead without
// JavaScript. Here they become buttons that answer a tap at once: pressed (aria-busy) in the same frame,
// the click recorded (analytics event and click source, docs/PRODUCT.md, _What is tracked and when_) and the
// lead dialog opened as soon as its small chunk is in (src/bundles/lead_dialog.ts). That chunk is fetched
// before anyone taps: when a plan button comes within a screen or two of the viewport, or on the first touch
// or pointer anywhere (on a phone, the first scroll). A tap that came before this script ran was held by the
// page's inline handler (src/ui/early_tap.ts) and is answered here.
import { trackEvent } from "../browser_logic/data_layer.ts";
import { trackClick } from "../browser_logic/tracking.ts";
import { clickSource, type LeadIntent } from "../ui/lead/lead_events.ts";
import { EARLY_TAP_KEY } from "../ui/early_tap.ts";
import { afterNextFrame, whenIdle } from "./later.ts";

type DialogModule = typeof import("./lead_dialog.ts");
let dialogCode: Promise<DialogModule> | undefined;

/**
 * The dialog's code, fetched once. Its two shared chunks (the pixel's helpers, the e-mail rule) are asked for
 * at the same time, not after the dialog's chunk has been read: one round trip instead of two (400 ms each on
 * the slow phone of bench/slow_phone.ts).
 */
export function loadLeadDialog(): Promise<DialogModule> {
  dialogCode ??= Promise.all([
    import("./lead_dialog.ts"),
    import("../browser_logic/pixel.ts"),
    import("../shared/email.ts"),
  ]).then(([m]) => m);
  return dialogCode;
}

function open(button: HTMLElement): void {
  let intent: LeadIntent;
  try {
    intent = JSON.parse(button.dataset.lead ?? "");
  } catch {
    return;
  }
  // Pressed at once, until the dialog is up (the CSS shows :active and aria-busy alike).
  button.setAttribute("aria-busy", "true");
  const pushEvent = () => {
    if (intent.kind === "plan") trackEvent("pricing_plan_click", "pricing", intent.planKey);
    else trackEvent("pricing_specialist_click", "pricing", "specialist");
  };
  // The pressed state is painted first: opening a modal dialog restyles the whole (long) page, which on a
  // slow phone takes a few frames, and the finger must see its answer before that. On a touch the pressed
  // look was painted while the finger was down: the dialog opens in this very task, one frame sooner.
  const painted = pressedOnScreen === button
    ? undefined
    : new Promise<void>((resolve) => afterNextFrame(resolve));
  void Promise.all([loadLeadDialog(), painted])
    .then(([m]) => {
      m.openLeadDialog(intent, button);
      // The click is recorded in a task after the dialog's frame (the request and the tag manager's push cost
      // a slow phone a few milliseconds the dialog should not wait for).
      afterNextFrame(() => {
        pushEvent();
        void trackClick(clickSource(intent));
      });
    })
    .catch(() => {
      // The chunk could not be fetched (connection lost): the link's own destination still works, and
      // /go/checkout counts the click itself.
      pushEvent();
      location.assign((button as HTMLAnchorElement).href);
    })
    .finally(() => button.removeAttribute("aria-busy"));
}

/**
 * Answers a tap the page's inline handler held before this script ran. Called once tracking has taken the
 * landing URL's UTM and touch (site.ts), so the click is counted with the visit's origin.
 */
export function answerEarlyTap(): void {
  const w = globalThis as unknown as Record<string, HTMLElement | undefined>;
  const early = w[EARLY_TAP_KEY];
  if (!early) return;
  w[EARLY_TAP_KEY] = undefined;
  open(early);
}

const PRESSED = "is-pressed";
/** How long the pressed look outlasts the finger: until the click that follows has set aria-busy. */
const PRESS_OUTLASTS_MS = 300;
/** The button whose pressed look is on the screen: a frame has been drawn since the finger came down on it. */
let pressedOnScreen: HTMLElement | null = null;

export function startLeadButtons(): void {
  const buttons = [...document.querySelectorAll<HTMLElement>("a[data-lead]")];
  for (const link of buttons) link.setAttribute("role", "button");
  document.addEventListener("keydown", (event) => {
    // A button answers the space bar too.
    if (event.key !== " " || !(event.target instanceof HTMLAnchorElement)) return;
    if (!event.target.matches("a[data-lead]")) return;
    event.preventDefault();
    event.target.click();
  });
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("a[data-lead]") : null;
    if (!button) return;
    event.preventDefault();
    open(button);
  });
  // Pressed as soon as the finger (or the mouse button) is down, not when the click comes after it is lifted;
  // a scroll that starts on a button cancels the pointer and the look. The click's aria-busy takes over.
  let pressed: HTMLElement | null = null;
  const release = (after: number) => {
    const button = pressed;
    pressed = null;
    if (!button) return;
    setTimeout(() => {
      button.classList.remove(PRESSED);
      if (pressedOnScreen === button) pressedOnScreen = null;
    }, after);
  };
  document.addEventListener("pointerdown", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("a[data-lead]") : null;
    if (!button || !event.isPrimary || event.button !== 0) return;
    pressed = button;
    pressedOnScreen = null;
    button.classList.add(PRESSED);
    // The frame that runs this callback paints the class just added.
    requestAnimationFrame(() => {
      if (button.classList.contains(PRESSED)) pressedOnScreen = button;
    });
  }, { passive: true });
  addEventListener("pointerup", () => release(PRESS_OUTLASTS_MS), { capture: true, passive: true });
  addEventListener("pointercancel", () => release(0), { capture: true, passive: true });
  if (!buttons.length) return;
  // From here on the inline handler lets taps through to the listener above.
  document.documentElement.dataset.leadButtons = "ready";
  // Prefetch: near the screen, or the first touch, pointer or key anywhere.
  const FIRST = ["touchstart", "pointerdown", "keydown"] as const;
  const prefetch = () => {
    near.disconnect();
    for (const type of FIRST) removeEventListener(type, prefetch, true);
    // Once the chunk is in, the dialog is wired while the visitor reads: the tap only has to show it.
    void loadLeadDialog().then((m) => whenIdle(m.prepareLeadDialog)).catch(() => {});
  };
  const near = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) prefetch();
  }, { rootMargin: "150% 0px" });
  for (const b of buttons) near.observe(b);
  for (const type of FIRST) addEventListener(type, prefetch, { capture: true, passive: true });
}
