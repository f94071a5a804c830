import { cloneElement, type ReactElement, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Icon } from "./Icon.tsx";

/** Spec sections 4 and 9: a tooltip opens 700 ms after hover or focus; 300 ms is the skip delay. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_MS = 300;

// Shared by every tooltip of the page: moving from one to the next (one is open, or closed less than the
// skip delay ago) opens the next at once instead of waiting the full delay again.
let openTooltips = 0;
let lastClosedAt = -Infinity;

/**
 * A small text shown next to its trigger on hover (mouse or pen) or keyboard focus. The trigger (one
 * element: a button or a link) is described by the text (`aria-describedby`), which stays in the page
 * while hidden so assistive technology reads it at once. Escape closes it; moving the pointer onto the
 * text keeps it open.
 */
export function Tooltip(
  { text, children, lang, placement = "top" }: {
    text: string;
    children: ReactElement<{ "aria-describedby"?: string }>;
    /** The text's language, when it is not the page's. */
    lang?: string;
    placement?: "top" | "bottom";
  },
) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const tip = useRef<HTMLSpanElement>(null);

  const show = () => {
    clearTimeout(timer.current);
    if (openTooltips > 0 || Date.now() - lastClosedAt < TOOLTIP_SKIP_MS) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen(false);
  };

  useEffect(() => () => clearTimeout(timer.current), []);
  // Centred on its trigger, but never past the screen's edges (a trigger near the edge of a phone).
  useLayoutEffect(() => {
    const el = tip.current;
    if (!open || !el) return;
    el.style.removeProperty("--tooltip-shift");
    const { left, right } = el.getBoundingClientRect();
    const room = document.documentElement.clientWidth - 8;
    const shift = left < 8 ? 8 - left : right > room ? room - right : 0;
    if (shift) el.style.setProperty("--tooltip-shift", `${Math.round(shift)}px`);
  }, [open]);
  useEffect(() => {
    if (!open) return;
    openTooltips++;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => {
      openTooltips--;
      lastClosedAt = Date.now();
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <span
      className="tooltip-anchor"
      onPointerEnter={(e) => e.pointerType !== "touch" && show()}
      onPointerLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => e.key === "Escape" && hide()}
    >
      {cloneElement(children, { "aria-describedby": id })}
      <span
        ref={tip}
        role="tooltip"
        id={id}
        lang={lang}
        className={`tooltip tooltip-${placement}`}
        hidden={!open}
      >
        {text}
      </span>
    </span>
  );
}

/** An "i" button that explains the text before it: its name says what it is, its tooltip says the rest. */
export function InfoTip({ label, text }: { label: string; text: string }) {
  return (
    <Tooltip text={text}>
      <button type="button" className="info-tip" aria-label={label}>
        <Icon name="info" size={16} />
      </button>
    </Tooltip>
  );
}
