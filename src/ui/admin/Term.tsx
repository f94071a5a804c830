import { type KeyboardEvent, type ReactNode, useId } from "react";
import { type MetricId, METRICS } from "../../shared/metrics.ts";

/**
 * A figure's name from the glossary (shared/metrics.ts), drawn with a dotted underline as a button whose
 * tooltip says exactly what the figure counts: shown on hover and on keyboard focus, read by screen readers
 * as the button's description, closed with Escape. `children` replaces the name where a table column needs a
 * short one. The name itself is the button, so explaining a figure adds no width to a narrow table.
 */
export function Term({ id, children }: { id: MetricId; children?: ReactNode }) {
  const tipId = useId();
  const term = METRICS[id];
  const close = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "Escape") e.currentTarget.blur();
  };
  return (
    <span className="term">
      <button type="button" className="term-help" aria-describedby={tipId} data-term={id} onKeyDown={close}>
        {children ?? term.name}
      </button>
      <span role="tooltip" id={tipId} className="term-tip">{term.tip}</span>
    </span>
  );
}
