import { cloneElement, type ReactElement, useId } from "react";
import { Icon } from "./Icon.tsx";

/**
 * A small text shown next to its trigger on hover (mouse or pen) or keyboard focus. The trigger (one
 * element: a button or a link) is described by the text (`aria-describedby`), which stays in the page
 * while hidden so assistive technology reads it at once. Server-rendered closed; the bootstrap's tooltip
 * code (src/bundles/tooltips.ts) opens and closes it with the delays of docs/PRODUCT.md, _Timings_.
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
  return (
    <span className="tooltip-anchor">
      {cloneElement(children, { "aria-describedby": id })}
      <span role="tooltip" id={id} lang={lang} className={`tooltip tooltip-${placement}`} hidden>
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
