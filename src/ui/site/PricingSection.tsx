import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { pageWhatsappLink, SITE } from "../../site.ts";
import { leadButton } from "../lead/lead_events.ts";
import { track } from "./track.ts";
import { Icon } from "./Icon.tsx";
import { Section } from "./SectionHeader.tsx";
import { InfoTip } from "./Tooltip.tsx";

/**
 * The pricing section (anchor `precos`), shared by the home and Trello pages. A plan button is a link to
 * /go/checkout (src/routes/go.ts: counts the click, carries the visit's origin to the plan's checkout), which
 * is where it leads without JavaScript; the specialist's goes to WhatsApp. With JavaScript, the bootstrap
 * makes them buttons that open the lead dialog first (src/bundles/lead.ts).
 */
export function PricingSection({ lang, page = "home" }: { lang: Lang; page?: "home" | "trello" }) {
  const { t } = useTranslation("home");
  // The specialist's WhatsApp text is the one of the page the section is on (the Trello page's asks about
  // Trello).
  const specialistUrl = pageWhatsappLink(page, lang);
  return (
    <Section id="precos" titleId="precos-title" t={t} keys="pricing" className="pricing">
      <div className="plans">
        {SITE.plans.map((plan) => {
          const name = t(`pricing.plans.${plan.key}.name`);
          const features = t(`pricing.plans.${plan.key}.features`, { returnObjects: true }) as string[];
          return (
            <article
              key={plan.key}
              className={plan.highlighted ? "plan-card highlighted" : "plan-card"}
              aria-labelledby={`plan-${plan.key}`}
            >
              {plan.highlighted && <p className="plan-badge">{t("pricing.popular")}</p>}
              <h3 id={`plan-${plan.key}`}>{name}</h3>
              <p className="plan-description">{t(`pricing.plans.${plan.key}.description`)}</p>
              <p className="plan-price">
                <strong>{t(`pricing.plans.${plan.key}.price`)}</strong>
                <span>{t("pricing.perMonth")}</span>
              </p>
              <p className="plan-attendants">
                <Icon name="users" size={18} /> {t(`pricing.plans.${plan.key}.attendants`)}
                <InfoTip label={t("pricing.hintLabel")} text={t("pricing.attendantsHint")} />
              </p>
              <p className="plan-attendants">
                <Icon name="chat" size={18} /> {t(`pricing.plans.${plan.key}.messages`)}
                <InfoTip label={t("pricing.hintLabel")} text={t("pricing.messagesHint")} />
              </p>
              <ul className="check-list">
                {features.map((f) => (
                  <li key={f}>
                    <Icon name="check" size={18} /> {f}
                  </li>
                ))}
              </ul>
              <a
                className={plan.highlighted ? "btn btn-primary btn-block" : "btn btn-outline btn-block"}
                href={`/go/checkout?plan=${plan.key}`}
                {...leadButton({
                  kind: "plan",
                  planKey: plan.key,
                  planName: name,
                  checkoutUrl: plan.checkoutUrl,
                })}
                {...track("cta_click", "pricing", plan.key)}
              >
                {t("pricing.subscribeShort")}
                <span className="visually-hidden">{` (${name})`}</span>
              </a>
            </article>
          );
        })}
      </div>
      <div className="specialist">
        <div>
          <h3>{t("pricing.specialistTitle")}</h3>
          <p>{t("pricing.specialistText")}</p>
        </div>
        <a
          className="btn btn-whatsapp"
          href={specialistUrl}
          {...leadButton({ kind: "specialist", checkoutUrl: specialistUrl })}
          {...track("cta_click", "pricing", "specialist")}
        >
          <Icon name="chat" size={18} /> {t("pricing.specialist")}
        </a>
      </div>
      <p className="pricing-note">{t("pricing.additional")}</p>
    </Section>
  );
}
