import type { MouseEventHandler } from "react";
import { Icon, type IconName } from "./Icon.tsx";

export interface CtaLink {
  label: string;
  href: string;
  onClick: MouseEventHandler<HTMLAnchorElement>;
  icon?: IconName;
  /** Opens in a new tab (WhatsApp). */
  external?: boolean;
}

/** The closing call to action of a page: a title, a line of text, the pricing button and one more way in. */
export function CtaBand(props: { title: string; subtitle: string; primary: CtaLink; secondary: CtaLink }) {
  return (
    <section id="cta-final" className="section cta-band" aria-labelledby="final-title">
      <div className="container center">
        <h2 id="final-title">{props.title}</h2>
        <p className="lead">{props.subtitle}</p>
        <div className="actions center">
          <CtaButton link={props.primary} className="btn btn-light btn-lg" />
          <CtaButton link={props.secondary} className="btn btn-outline-light btn-lg" />
        </div>
      </div>
    </section>
  );
}

function CtaButton({ link, className }: { link: CtaLink; className: string }) {
  return (
    <a
      className={className}
      href={link.href}
      onClick={link.onClick}
      {...(link.external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      {link.icon && <Icon name={link.icon} size={18} />}
      {link.icon ? " " + link.label : link.label}
    </a>
  );
}
