import { useId, useState } from "react";
import { Icon } from "./Icon.tsx";

/** Questions and answers, one open at a time; a second click closes the open one. */
export function Faq({ items, numbered = false }: { items: { q: string; a: string }[]; numbered?: boolean }) {
  const [open, setOpen] = useState<number | null>(null);
  const base = useId();
  return (
    <div className="faq">
      {items.map((item, i) => {
        const expanded = open === i;
        return (
          <div className={expanded ? "faq-item open" : "faq-item"} key={i}>
            <h3>
              <button
                type="button"
                id={`${base}-q${i}`}
                aria-expanded={expanded}
                aria-controls={`${base}-a${i}`}
                onClick={() => setOpen(expanded ? null : i)}
              >
                <span>{numbered ? `${i + 1}. ${item.q}` : item.q}</span>
                <Icon name="chevron" size={18} />
              </button>
            </h3>
            <div id={`${base}-a${i}`} role="region" aria-labelledby={`${base}-q${i}`} hidden={!expanded}>
              <p>{item.a}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
