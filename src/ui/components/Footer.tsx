import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { homeAnchor, pagePath } from "../../shared/routes.ts";
import { SITE } from "../../site.ts";
import { track } from "../site/track.ts";
import { Logo } from "../site/Logo.tsx";
import { usePublicConfig } from "../public_config.ts";
import { hasThirdParties } from "../../browser_logic/consent.ts";

const SOCIAL = [
  ["instagram", "Instagram"],
  ["linkedin", "LinkedIn"],
  ["youtube", "YouTube"],
  ["facebook", "Facebook"],
] as const;

/** A phone number that never breaks across lines: no-break spaces and a non-breaking hyphen. */
function unbreakable(text: string): string {
  return text.replaceAll(" ", "\u00a0").replaceAll("-", "\u2011");
}

/** Site footer: product, company and social links, and the rights line. */
export function Footer({ lang }: { lang: Lang }) {
  const { t } = useTranslation("common");
  const external = { target: "_blank", rel: "noopener noreferrer" } as const;
  const config = usePublicConfig();
  // Cookie preferences exist only where there is something to consent to: a pixel or tag manager that
  // waits for the visitor's choice.
  const consentChoice = hasThirdParties(config) && config.consentMode === "opt-in";
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Logo inverted />
          <p>{t("footer.tagline")}</p>
          <p className="footer-address">{SITE.address}</p>
        </div>
        <nav aria-labelledby="footer-product">
          <h2 id="footer-product">{t("footer.product")}</h2>
          <ul>
            <li>
              <a href={homeAnchor(lang, "funcionalidades")}>{t("footer.features")}</a>
            </li>
            <li>
              <a href={homeAnchor(lang, "precos")}>{t("footer.pricing")}</a>
            </li>
            <li>
              <a href={pagePath("pipefy", lang)}>{t("footer.pipefy")}</a>
            </li>
            <li>
              <a href={pagePath("trello", lang)}>{t("footer.trello")}</a>
            </li>
            <li>
              <a href={SITE.apiDocsUrl} {...external}>{t("footer.apiDocs")}</a>
            </li>
            <li>
              <a href={SITE.platformUrl} {...external}>{t("footer.platform")}</a>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company">{t("footer.company")}</h2>
          <ul>
            <li>
              <a href={pagePath("customers", lang)}>{t("footer.customers")}</a>
            </li>
            <li>
              <a href={pagePath("privacy", lang)}>{t("footer.privacy")}</a>
            </li>
            <li>
              <a href={pagePath("terms", lang)}>{t("footer.terms")}</a>
            </li>
            <li>
              <a href={`mailto:${SITE.supportEmail}`}>{t("footer.support", { email: SITE.supportEmail })}</a>
            </li>
            <li>
              <a href={`tel:${SITE.phoneE164}`}>
                {t("footer.phone", { phone: unbreakable(SITE.phoneDisplay) })}
              </a>
            </li>
            {consentChoice && (
              <li>
                <button type="button" className="link-button" data-consent-open="">
                  {t("footer.cookieSettings")}
                </button>
              </li>
            )}
          </ul>
        </nav>
        <nav aria-labelledby="footer-social">
          <h2 id="footer-social">{t("footer.social")}</h2>
          <ul>
            {SOCIAL.map(([key, label]) => (
              <li key={key}>
                <a
                  href={SITE.social[key]}
                  {...external}
                  {...track("channel_click", "social", key)}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>{t("footer.rights", { year: new Date().getFullYear(), brand: SITE.brand })}</p>
        <p>{SITE.legalName}</p>
      </div>
    </footer>
  );
}
