import { homeAnchor } from "../../shared/routes.ts";
import type { Lang } from "../../shared/languages.ts";
import { Icon, type IconName } from "./Icon.tsx";

/** What a click on a call to action does: tracking, in-page scroll (see track.ts). */
export type CtaAttributes = { "data-track": string; "data-anchor"?: string };

export interface SecondaryCta {
  href: string;
  click: CtaAttributes;
  icon?: IconName;
  /** Opens in a new tab (WhatsApp). */
  external?: boolean;
}

/**
 * The closing call to action of a page: `finalCta.title`, `finalCta.subtitle`, a button to the home pricing
 * (`finalCta.primary`) and one more way in (`finalCta.secondary`), texts from the page's namespace.
 */
export function CtaBand(
  { t, lang, onPricing, secondary }: {
    t: (key: string) => string;
    lang: Lang;
    onPricing: CtaAttributes;
    secondary: SecondaryCta;
  },
) {
  return (
    <section id="cta-final" className="section cta-band" aria-labelledby="final-title">
      <div className="container center">
        <h2 id="final-title">{t("finalCta.title")}</h2>
        <p className="lead">{t("finalCta.subtitle")}</p>
        <div className="actions center">
          <a className="btn btn-light btn-lg" href={homeAnchor(lang, "precos")} {...onPricing}>
            {t("finalCta.primary")}
          </a>
          <a
            className="btn btn-outline-light btn-lg"
            href={secondary.href}
            {...secondary.click}
            {...(secondary.external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
          >
            {secondary.icon && <Icon name={secondary.icon} size={18} />}
            {secondary.icon ? " " + t("finalCta.secondary") : t("finalCta.secondary")}
          </a>
        </div>
      </div>
    </section>
  );
}
