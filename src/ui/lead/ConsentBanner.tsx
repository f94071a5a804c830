// LGPD consent banner for the Meta pixel and the tag manager (CONSENT_MODE=opt-in). Rendered only in the
// browser: the server cannot know a stored choice, and a banner that flashes away would be worse.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { pagePath } from "../../shared/routes.ts";
import { CONSENT_OPEN_EVENT } from "./lead_events.ts";
import { type ConsentChoice, hasThirdParties, storeConsent, storedConsent } from "../../browser/consent.ts";
import { pageConfig } from "../../browser/page_config.ts";

export function ConsentBanner({ lang }: { lang: Lang }) {
  const { t } = useTranslation("lead");
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const config = pageConfig();
    if (config.consentMode === "opt-in" && hasThirdParties(config) && storedConsent() === null) setOpen(true);
    const reopen = () => setOpen(true);
    addEventListener(CONSENT_OPEN_EVENT, reopen);
    return () => removeEventListener(CONSENT_OPEN_EVENT, reopen);
  }, []);

  if (!open) return null;

  const choose = (choice: ConsentChoice) => {
    const before = storedConsent();
    storeConsent(choice);
    setOpen(false);
    const config = pageConfig();
    if (choice === "granted") void import("../../browser/pixel.ts").then((m) => m.startThirdParties(config));
    // Scripts already running cannot be unloaded: a reload starts the page without them.
    else if (before === "granted" && "fbq" in globalThis) location.reload();
  };

  return (
    <section className="consent-banner" role="region" aria-labelledby="consent-title">
      <div className="consent-text">
        <h2 id="consent-title">{t("consent.title")}</h2>
        <p>
          {t("consent.text")} <a href={pagePath("privacy", lang)}>{t("consent.privacyLink")}</a>
        </p>
      </div>
      <div className="consent-actions">
        <button type="button" className="btn btn-outline" onClick={() => choose("denied")}>
          {t("consent.reject")}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => choose("granted")}>
          {t("consent.accept")}
        </button>
      </div>
    </section>
  );
}
