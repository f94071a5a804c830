// LGPD consent banner for the Meta pixel and the tag manager (CONSENT_MODE=opt-in). Rendered hidden by the
// server (which cannot know a stored choice); the bootstrap shows it when no choice is stored, and again
// from the footer's privacy-preferences button (src/bundles/consent_banner.ts).
import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { pagePath } from "../../shared/routes.ts";

export function ConsentBanner({ lang }: { lang: Lang }) {
  const { t } = useTranslation("lead");
  return (
    <section className="consent-banner" role="region" aria-labelledby="consent-title" hidden>
      <div className="consent-text">
        <h2 id="consent-title">{t("consent.title")}</h2>
        <p>
          {t("consent.text")} <a href={pagePath("privacy", lang)}>{t("consent.privacyLink")}</a>
        </p>
      </div>
      <div className="consent-actions">
        <button type="button" className="btn btn-outline" data-consent="denied">
          {t("consent.reject")}
        </button>
        <button type="button" className="btn btn-outline" data-consent="granted">
          {t("consent.accept")}
        </button>
      </div>
    </section>
  );
}
