import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";
import { CtaBand } from "../site/CtaBand.tsx";
import { homeAnchor } from "../../shared/routes.ts";
import { pageWhatsappLink, SITE } from "../../site.ts";
import { track } from "../site/track.ts";
import { CustomerLogo } from "../site/CustomerLogo.tsx";
import { Icon } from "../site/Icon.tsx";
import { Section } from "../site/SectionHeader.tsx";
import { Island } from "../Island.tsx";

/**
 * The customers page: hero with badges and a WhatsApp button (the customers page's own prefilled text), stats
 * band, 25 logos with sectors, final call to action.
 */
export default function CustomersPage({ lang, page }: PageProps) {
  const { t } = useTranslation("customers");
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as T[];
  return (
    <Layout lang={lang} page={page}>
      <section className="hero integration-hero" aria-labelledby="hero-title">
        <div className="container center">
          <ul className="badges">
            {list<string>("hero.badges").map((b) => (
              <li key={b} className="pill">
                <Icon name="star" size={16} /> {b}
              </li>
            ))}
          </ul>
          <h1 id="hero-title">{t("hero.title")}</h1>
          <p className="lead hero-lead">{t("hero.subtitle")}</p>
          <div className="actions center">
            <a
              className="btn btn-whatsapp btn-lg"
              href={pageWhatsappLink("customers", lang)}
              target="_blank"
              rel="noopener noreferrer"
            >
              <Icon name="chat" size={18} /> {t("hero.whatsapp")}
              <span className="visually-hidden">{t("common:nav.newTab")}</span>
            </a>
          </div>
        </div>
      </section>

      <section className="stats-band" aria-label={t("grid.eyebrow")}>
        <dl className="container stats-grid">
          {list<{ value: string; label: string }>("stats").map((s) => (
            <div key={s.label}>
              <dt>{s.label}</dt>
              <dd>{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <Section id="clientes" titleId="grid-title" t={t} keys="grid">
        <Island name="logos" when="visible">
          <ul className="logo-grid">
            {SITE.customers.map((c) => (
              <li key={c.name} className="logo-card">
                <CustomerLogo name={c.name} src={c.logo} />
                <p className="logo-name">{c.name}</p>
                <p className="logo-sector">{t(`sectors.${c.sector}`)}</p>
              </li>
            ))}
          </ul>
        </Island>
      </Section>

      <CtaBand
        t={t}
        lang={lang}
        onPricing={track("cta_click", "customers", "pricing")}
        secondary={{
          href: homeAnchor(lang, "hero-cta"),
          click: track("cta_click", "customers", "hero_cta"),
        }}
      />
    </Layout>
  );
}
