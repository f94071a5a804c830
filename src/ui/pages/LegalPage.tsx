import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";
import { SITE } from "../../site.ts";

interface LegalSection {
  title: string;
  body: string[];
  items?: string[];
  link?: string;
}

/** Terms of service or privacy policy: 13 numbered sections from the `legal` namespace, then the contact block. */
export default function LegalPage({ lang, page }: PageProps) {
  const { t } = useTranslation("legal");
  const doc = page === "terms" ? "terms" : "privacy";
  const sections = t(`${doc}.sections`, { returnObjects: true }) as LegalSection[];
  return (
    <Layout lang={lang} page={page}>
      {/* data-scroll-top: opens at its top, no earlier scroll position restored (src/bundles/site.ts). */}
      <article className="container narrow section legal" aria-labelledby="legal-title" data-scroll-top="">
        <header className="legal-header">
          <h1 id="legal-title">{t(`${doc}.meta.title`)}</h1>
          <p className="legal-updated">{t("updated")}</p>
          <p className="lead">{t(`${doc}.intro`)}</p>
        </header>
        <nav className="legal-toc" aria-label={t("sectionsLabel")}>
          <ol>
            {sections.map((s, i) => (
              <li key={s.title}>
                <a href={`#secao-${i + 1}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((s, i) => (
          <section key={s.title} id={`secao-${i + 1}`} className="legal-section">
            <h2>
              <span className="legal-number">{i + 1}.</span> {s.title}
            </h2>
            {s.body.map((p) => <p key={p}>{p}</p>)}
            {s.items && (
              <ul>
                {s.items.map((item) => <li key={item}>{item}</li>)}
              </ul>
            )}
            {s.link && (
              <p>
                <a href={SITE.chatbotCancellationUrl} target="_blank" rel="noopener noreferrer">
                  {s.link}
                </a>
              </p>
            )}
          </section>
        ))}
        <section className="legal-contact" aria-labelledby="legal-contact-title">
          <h2 id="legal-contact-title">{t("contact.title")}</h2>
          <p>
            <strong>{t("contact.email")}</strong>{" "}
            <a href={`mailto:${SITE.contactEmail}`}>{SITE.contactEmail}</a>
          </p>
          <p>
            <strong>{t("contact.company")}</strong> {SITE.legalName}
          </p>
          <p>
            <strong>{t("contact.address")}</strong> {SITE.address}
          </p>
        </section>
      </article>
    </Layout>
  );
}
