import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { pagePath } from "../../shared/routes.ts";
import { SITE } from "../../site.ts";

/** Site footer: company links and the rights line. */
export function Footer({ lang }: { lang: Lang }) {
  const { t } = useTranslation("common");
  return (
    <footer className="site-footer">
      <div className="container">
        <a href={pagePath("privacy", lang)}>{t("footer.privacy")}</a>
        <a href={pagePath("terms", lang)}>{t("footer.terms")}</a>
        <p>{t("footer.rights", { year: 2026, brand: SITE.brand })}</p>
      </div>
    </footer>
  );
}
