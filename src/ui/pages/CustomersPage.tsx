import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";

/** The customers page. */
export default function CustomersPage({ lang, page }: PageProps) {
  const { t } = useTranslation("customers");
  return (
    <Layout lang={lang} page={page}>
      <section className="container section">
        <h1>{t("meta.title")}</h1>
        <p>{t("meta.description")}</p>
      </section>
    </Layout>
  );
}
