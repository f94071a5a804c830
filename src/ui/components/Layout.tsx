import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Header } from "./Header.tsx";
import { Footer } from "./Footer.tsx";
import { LeadModal } from "../lead/LeadModal.tsx";
import { ConsentBanner } from "../lead/ConsentBanner.tsx";
import type { Lang } from "../../shared/languages.ts";
import type { PageId } from "../../shared/routes.ts";

/** Header, main landmark and footer shared by every public page. */
export function Layout({ lang, page, children }: { lang: Lang; page: PageId; children: ReactNode }) {
  const { t } = useTranslation("common");
  return (
    <>
      <a className="skip-link" href="#main">{t("nav.skipToContent")}</a>
      <Header lang={lang} page={page} />
      <main id="main" tabIndex={-1}>{children}</main>
      <Footer lang={lang} />
      <LeadModal lang={lang} />
      <ConsentBanner lang={lang} />
    </>
  );
}
