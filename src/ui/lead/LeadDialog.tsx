// The lead-capture dialog (docs/PRODUCT.md, _Lead modal_), server-rendered closed on every public page. A few
// KB of plain DOM script drive it (src/bundles/lead_dialog.ts): no React in the browser, so a plan tap on a
// slow phone opens it at once (docs/PERFORMANCE.md, "The plan tap"). The texts that change with the button
// (title, description, privacy line) and the validation messages travel in `data-strings`.
import { pagePath } from "../../shared/routes.ts";
import type { Lang } from "../../shared/languages.ts";
import { type Strings, translator } from "./strings.ts";

export const LEAD_DIALOG_ID = "lead-dialog";
/** The box "Quero receber o contato pelo WhatsApp", only on a site with WhatsApp messages configured. */
export const WHATSAPP_CONSENT_ID = "lead-whatsapp-consent";

const FIELDS = [
  { name: "name", type: "text", autoComplete: "name" },
  { name: "email", type: "email", autoComplete: "email", inputMode: "email" },
  { name: "whatsapp", type: "tel", autoComplete: "tel", inputMode: "tel" },
] as const;

export function LeadDialog(
  { lang, strings, whatsappConsent = false }: {
    lang: Lang;
    strings: Strings;
    /** WhatsApp messages are configured: the unchecked consent box is shown (issue 31, docs in README). */
    whatsappConsent?: boolean;
  },
) {
  const t = translator(strings);
  const privacy = pagePath("privacy", lang);
  return (
    <dialog
      id={LEAD_DIALOG_ID}
      className="lead-dialog"
      aria-labelledby="lead-title"
      aria-describedby="lead-description"
      data-strings={JSON.stringify(strings)}
    >
      <form className="lead-form" noValidate>
        <div className="lead-head">
          <h2 id="lead-title">{t("leadModal.specialistTitle")}</h2>
          <button type="button" className="lead-close" aria-label={t("leadModal.close")} data-close>
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <p id="lead-description" className="lead-description">{t("leadModal.specialistDescription")}</p>
        {FIELDS.map((f) => (
          <div className="lead-field" key={f.name}>
            <label htmlFor={`lead-${f.name}`}>{t(`leadModal.fields.${f.name}.label`)}</label>
            <input
              id={`lead-${f.name}`}
              name={f.name}
              type={f.type}
              inputMode={"inputMode" in f ? f.inputMode : undefined}
              autoComplete={f.autoComplete}
              placeholder={t(`leadModal.fields.${f.name}.placeholder`)}
              aria-required="true"
              // showModal() focuses it in its own steps: no second focus change after the close button.
              autoFocus={f.name === "name"}
            />
          </div>
        ))}
        {whatsappConsent && (
          <label className="lead-consent" htmlFor={WHATSAPP_CONSENT_ID}>
            <input id={WHATSAPP_CONSENT_ID} name="whatsappConsent" type="checkbox" />
            <span>{t("leadModal.whatsappConsent")}</span>
          </label>
        )}
        <div className="lead-hp" aria-hidden="true">
          <label htmlFor="lead-website">Website</label>
          <input id="lead-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <p className="lead-privacy" data-for="plan">
          <PolicySentence text={t("leadModal.privacy")} href={privacy} note={t("common:nav.newTab")} />
        </p>
        <p className="lead-privacy" data-for="specialist">
          <PolicySentence
            text={t("leadModal.specialistPrivacy")}
            href={privacy}
            note={t("common:nav.newTab")}
          />
        </p>
        <div className="lead-actions">
          <button type="button" className="btn btn-outline" data-close>{t("leadModal.cancel")}</button>
          <button type="submit" className="btn btn-primary">{t("leadModal.submit")}</button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * The privacy sentence with its `<policy>…</policy>` words as a link to the policy, in a new tab (so the
 * form stays as it is) said to screen readers.
 */
function PolicySentence({ text, href, note }: { text: string; href: string; note: string }) {
  const [before, linked, after] = text.split(/<\/?policy>/);
  if (linked === undefined) return <>{text}</>;
  return (
    <>
      {before}
      <a href={href} target="_blank" rel="noopener">
        {linked}
        <span className="visually-hidden">{` ${note}`}</span>
      </a>
      {after}
    </>
  );
}
