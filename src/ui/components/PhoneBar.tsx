import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { homeAnchor, type PageId, pagePath } from "../../shared/routes.ts";
import { pageWhatsappLink } from "../../site.ts";
import { anchorLink } from "../site/track.ts";
import { Icon } from "../site/Icon.tsx";

/** Pages with a hero, after which the phone bar offers its two shortcuts. */
export const PHONE_BAR_PAGES: readonly PageId[] = ["home", "pipefy", "trello", "customers"];

/**
 * The phone's shortcut bar: "talk on WhatsApp" (with the page's own prefilled text) and "see the plans".
 * Server-rendered and fixed to the bottom of narrow screens, with its height reserved at the end of the page
 * by the empty block before it (phone.css), so it never shifts anything; it shows once the hero has scrolled
 * away (src/bundles/phone_bar.ts) and hides while the lead dialog, the consent banner, the phone menu or a form
 * field is in use.
 */
export function PhoneBar({ lang, page }: { lang: Lang; page: PageId }) {
  const { t } = useTranslation("common");
  // The Trello page has the plans itself; the other pages lead to the home page's.
  const plans = page === "trello" ? `${pagePath("trello", lang)}#precos` : homeAnchor(lang, "precos");
  return (
    <>
      <div className="phone-bar-space" />
      <nav className="phone-bar" aria-label={t("phoneBar.label")} data-phone-bar="">
        <a
          className="btn btn-whatsapp"
          href={pageWhatsappLink(page, lang)}
          target="_blank"
          rel="noopener noreferrer"
        >
          <Icon name="chat" size={18} /> {t("phoneBar.whatsapp")}
          <span className="visually-hidden">{t("nav.newTab")}</span>
        </a>
        <a className="btn btn-primary" href={plans} {...anchorLink("cta_click", "phone_bar", "plans")}>
          {t("phoneBar.plans")}
        </a>
      </nav>
    </>
  );
}
