import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";

/** Terms of service or privacy policy, from the `legal` namespace. */
export default function LegalPage({ lang, page }: PageProps) {
  const { t } = useTranslation("legal");
  const doc = page === "terms" ? "terms" : "privacy";
  return (
    <Layout lang={lang} page={page}>
      <article className="container section legal">
        <h1>{t(`${doc}.meta.title`)}</h1>
        <p>{t(`${doc}.meta.description`)}</p>
      </article>
    </Layout>
  );
}
