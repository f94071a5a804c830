import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { pagePath } from "../../shared/routes.ts";

/** Unknown paths. The two English lines are the spec's exact wording. */
export function NotFoundPage({ lang }: { lang: Lang }) {
  const { t } = useTranslation("common");
  return (
    <main id="main" className="not-found">
      <div className="not-found-card">
        <h1>404 Page Not Found</h1>
        <p>Did you forget to add the page to the router?</p>
        <a className="btn btn-primary" href={pagePath("home", lang)}>{t("notFound.back")}</a>
      </div>
    </main>
  );
}
