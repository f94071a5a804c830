import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";

/** The pipefy page. */
export default function PipefyPage({ lang, page }: PageProps) {
  const { t } = useTranslation("pipefy");
  return (
    <Layout lang={lang} page={page}>
      <section className="container section">
        <h1>{t("meta.title")}</h1>
        <p>{t("meta.description")}</p>
      </section>
    </Layout>
  );
}
