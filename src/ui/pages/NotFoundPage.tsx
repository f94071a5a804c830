import { useTranslation } from "react-i18next";
import { pagePath } from "../../shared/routes.ts";
import { Layout } from "../components/Layout.tsx";
import type { PageProps } from "./registry.ts";

/**
 * Unknown paths: the two English sentences of docs/PRODUCT.md, _Pages and routes_, then the same in the
 * visitor's language with a way home, inside the site's header and footer.
 */
export default function NotFoundPage({ lang, page }: PageProps) {
  const { t } = useTranslation("common");
  return (
    <Layout lang={lang} page={page}>
      <section className="not-found" aria-labelledby="not-found-title">
        <div className="not-found-card">
          <h1 id="not-found-title" lang="en">404 Page Not Found</h1>
          <p lang="en">Did you forget to add the page to the router?</p>
          <p className="not-found-local">
            <strong>{t("notFound.title")}</strong> {t("notFound.text")}
          </p>
          <a className="btn btn-primary" href={pagePath("home", lang)}>{t("notFound.back")}</a>
        </div>
      </section>
    </Layout>
  );
}
