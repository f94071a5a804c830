import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Header } from "./Header.tsx";
import { Footer } from "./Footer.tsx";
import { LeadDialog } from "../lead/LeadDialog.tsx";
import { PHONE_BAR_PAGES, PhoneBar } from "./PhoneBar.tsx";
import { ConsentBanner } from "../lead/ConsentBanner.tsx";
import { flatten } from "../lead/strings.ts";
import { usePublicConfig } from "../public_config.ts";
import { hasThirdParties } from "../../browser_logic/consent.ts";
import type { Lang } from "../../shared/languages.ts";
import type { PageId } from "../../shared/routes.ts";

/** Header, main landmark and footer shared by every public page, the phone bar and the lead dialog (closed). */
export function Layout({ lang, page, children }: { lang: Lang; page: PageId; children: ReactNode }) {
  const { t } = useTranslation("common");
  const config = usePublicConfig();
  const strings = {
    ...flatten(t("lead:leadModal", { returnObjects: true }), "leadModal"),
    "common:nav.newTab": t("nav.newTab"),
  };
  return (
    <>
      <a className="skip-link" href="#main">{t("nav.skipToContent")}</a>
      {/* The consent banner comes first after the skip link: a keyboard reaches its choice at once. */}
      {hasThirdParties(config) && config.consentMode === "opt-in" && <ConsentBanner lang={lang} />}
      <Header lang={lang} page={page} />
      <main id="main" tabIndex={-1}>{children}</main>
      <Footer lang={lang} />
      {PHONE_BAR_PAGES.includes(page) && <PhoneBar lang={lang} page={page} />}
      <LeadDialog lang={lang} strings={strings} whatsappConsent={config.whatsappConsent === true} />
    </>
  );
}
