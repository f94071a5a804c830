import type { ReactNode } from "react";

/** The eyebrow, heading and lead paragraph that open a section. */
export function SectionHeader(
  { id, eyebrow, title, subtitle, center = true }: {
    id: string;
    eyebrow?: string;
    title: string;
    subtitle?: string;
    center?: boolean;
  },
) {
  return (
    <div className={center ? "section-header center" : "section-header"}>
      {eyebrow && <p className="eyebrow">{eyebrow}</p>}
      <h2 id={id}>{title}</h2>
      {subtitle && <p className="lead">{subtitle}</p>}
    </div>
  );
}

/**
 * A page section opened by a centred header whose texts are `<keys>.eyebrow`, `<keys>.title` and
 * `<keys>.subtitle` in the page's namespace; `className` adds to "section", `width` to "container".
 */
export function Section(
  { id, titleId, t, keys, subtitle = true, className, width, children }: {
    id?: string;
    titleId: string;
    t: (key: string) => string;
    keys: string;
    subtitle?: boolean;
    className?: string;
    width?: "narrow";
    children: ReactNode;
  },
) {
  return (
    <section id={id} className={className ? `section ${className}` : "section"} aria-labelledby={titleId}>
      <div className={width ? `container ${width}` : "container"}>
        <SectionHeader
          id={titleId}
          eyebrow={t(`${keys}.eyebrow`)}
          title={t(`${keys}.title`)}
          subtitle={subtitle ? t(`${keys}.subtitle`) : undefined}
        />
        {children}
      </div>
    </section>
  );
}
