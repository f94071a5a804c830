import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";
import { IntegrationSections } from "../site/IntegrationSections.tsx";
import { PricingSection } from "../site/PricingSection.tsx";

/** The Trello integration page: the shared integration sections, then the pricing section. */
export default function TrelloPage({ lang, page }: PageProps) {
  return (
    <Layout lang={lang} page={page}>
      <IntegrationSections ns="trello" lang={lang} />
      <PricingSection lang={lang} page="trello" />
    </Layout>
  );
}
