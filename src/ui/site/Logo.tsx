import { SITE } from "../../site.ts";

/** The brand mark and name; the mark is decorative, the name is text. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className={inverted ? "brand brand-inverted" : "brand"}>
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="9" fill="#075e54" />
        <path
          d="M9 10h14l-10 12h10"
          fill="none"
          stroke="#25d366"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="brand-name">{SITE.brand}</span>
    </span>
  );
}
