import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";
import { CtaBand } from "../site/CtaBand.tsx";
import { LANG_INFO } from "../../shared/languages.ts";
import { homeAnchor } from "../../shared/routes.ts";
import { SITE, whatsappLink } from "../../site.ts";
import { track } from "../site/track.ts";
import { anchorCta, IntegrationSections } from "../site/IntegrationSections.tsx";
import { Section } from "../site/SectionHeader.tsx";
import { Faq } from "../site/Faq.tsx";
import { Icon } from "../site/Icon.tsx";

type PlanRow = typeof SITE.planTable[number];

/** A plan's name in the table or the phone list, with the star of the most chosen one. */
function PlanName({ row }: { row: PlanRow }) {
  const { t } = useTranslation("pipefy");
  return (
    <>
      {t(`plans.names.${row.key}`)}
      {row.featured && (
        <span className="featured-tag">
          <Icon name="star" size={16} /> {t("plans.featured")}
        </span>
      )}
    </>
  );
}

/** The Pipefy integration page: shared sections, then plan table, notes, policy, FAQ, contact, CTA. */
export default function PipefyPage({ lang, page }: PageProps) {
  const { t } = useTranslation("pipefy");
  const locale = LANG_INFO[lang].htmlLang;
  // Grouped always: Spanish leaves 4-digit numbers ungrouped ("1000"), the plan cards write "1.000".
  const count = new Intl.NumberFormat(locale, { useGrouping: "always" });
  // Written as the pricing cards write it in every language ("R$ 297"), not Intl's "297 BRL" in Spanish.
  const money = (brl: number) => `R$ ${count.format(brl)}`;
  return (
    <Layout lang={lang} page={page}>
      <IntegrationSections ns="pipefy" lang={lang} />

      <Section id="planos" titleId="plans-title" t={t} keys="plans" width="narrow">
        <div className="table-wrap">
          <table className="plan-table">
            <caption className="visually-hidden">{t("plans.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("plans.colPlan")}</th>
                <th scope="col">{t("plans.colMessages")}</th>
                <th scope="col">{t("plans.colValue")}</th>
              </tr>
            </thead>
            <tbody>
              {SITE.planTable.map((row) => (
                <tr key={row.key} className={row.featured ? "featured" : undefined}>
                  <th scope="row">
                    <PlanName row={row} />
                  </th>
                  <td>{count.format(row.messages)}</td>
                  <td>{money(row.price)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {/* Phones: the same rows as stacked cards, so no column hides in a sideways-scrolling box. */}
        <ul className="plan-list">
          {SITE.planTable.map((row) => (
            <li key={row.key} className={row.featured ? "plan-list-item featured" : "plan-list-item"}>
              <h3>
                <PlanName row={row} />
              </h3>
              <dl>
                <div>
                  <dt>{t("plans.colMessages")}</dt>
                  <dd>{count.format(row.messages)}</dd>
                </div>
                <div>
                  <dt>{t("plans.colValue")}</dt>
                  <dd>{money(row.price)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
        <p className="plan-table-compare">
          <a href={homeAnchor(lang, "precos")} {...anchorCta("pipefy_compare_plans")}>
            {t("plans.compare")} <Icon name="arrow" size={16} />
          </a>
        </p>
        <div className="card-grid two notes">
          <div className="card">
            <h3>{t("notes.messageTitle")}</h3>
            <p>{t("notes.messageText")}</p>
          </div>
          <div className="card">
            <h3>{t("notes.upgradeTitle")}</h3>
            <p>{t("notes.upgradeText")}</p>
          </div>
        </div>
        <aside className="policy" aria-labelledby="cancel-title">
          <h3 id="cancel-title">{t("cancellation.title")}</h3>
          <p>{t("cancellation.text")}</p>
          <p>
            <strong>{t("cancellation.exampleLabel")}</strong> {t("cancellation.example")}
          </p>
          <p className="policy-important">
            <strong>{t("cancellation.importantLabel")}</strong> {t("cancellation.important")}
          </p>
        </aside>
      </Section>

      <Section id="faq" titleId="faq-title" t={t} keys="faq" subtitle={false} className="soft" width="narrow">
        <Faq numbered items={t("faq.items", { returnObjects: true }) as { q: string; a: string }[]} />
        <div className="contact-box" id="contato">
          <div>
            <h3>{t("contact.title")}</h3>
            <p>{t("contact.text")}</p>
          </div>
          <a
            className="btn btn-whatsapp"
            href={whatsappLink(SITE.whatsappMessages.pipefy[lang])}
            target="_blank"
            rel="noopener noreferrer"
            {...track("channel_click", "whatsapp", "pipefy_contact")}
          >
            <Icon name="chat" size={18} /> {t("contact.button")}
          </a>
        </div>
      </Section>

      <CtaBand
        t={t}
        lang={lang}
        onPricing={anchorCta("pipefy_final_pricing")}
        secondary={{
          href: "#video-demo",
          click: anchorCta("pipefy_final_demo"),
          icon: "play",
        }}
      />
    </Layout>
  );
}
