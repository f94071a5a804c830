import { useId } from "react";
import { Icon } from "./Icon.tsx";

/**
 * Questions and answers as `details`/`summary`: they open and close without JavaScript. The shared `name`
 * keeps one open at a time where the browser knows it; src/bundles/faq.ts does the same elsewhere.
 */
export function Faq({ items, numbered = false }: { items: { q: string; a: string }[]; numbered?: boolean }) {
  const base = useId();
  return (
    <div className="faq">
      {items.map((item, i) => (
        <details className="faq-item" name={`${base}-faq`} key={i}>
          <summary id={`${base}-q${i}`}>
            <h3>{numbered ? `${i + 1}. ${item.q}` : item.q}</h3>
            <Icon name="chevron" size={18} />
          </summary>
          <div role="region" aria-labelledby={`${base}-q${i}`}>
            <p>{item.a}</p>
          </div>
        </details>
      ))}
    </div>
  );
}
