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
