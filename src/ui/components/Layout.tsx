import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Header } from "./Header.tsx";
import { Footer } from "./Footer.tsx";
import { PHONE_BAR_PAGES, PhoneBar } from "./PhoneBar.tsx";
import { LeadModal } from "../lead/LeadModal.tsx";
import { ConsentBanner } from "../lead/ConsentBanner.tsx";
import { flatten } from "../lead/strings.ts";
import { Island } from "../Island.tsx";
import { usePublicConfig } from "../public_config.ts";
import { hasThirdParties } from "../../browser/consent.ts";
import type { Lang } from "../../shared/languages.ts";
import type { PageId } from "../../shared/routes.ts";

/** Header, main landmark and footer shared by every public page, and the lead modal's island. */
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
      <Island name="lead" when="interaction" triggers="[data-lead]" props={{ lang, strings }}>
        <LeadModal lang={lang} strings={strings} />
      </Island>
    </>
  );
}
