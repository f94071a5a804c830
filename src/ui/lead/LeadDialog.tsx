// The lead-capture dialog (spec sections 2, 4 and 5). Loaded on first use by LeadModal.tsx; its texts come
// with the island's props.
import {
  type FormEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { pagePath } from "../../shared/routes.ts";
import type { Lang } from "../../shared/languages.ts";
import type { LeadIntent } from "./lead_events.ts";
import { type Strings, translator } from "./strings.ts";
import {
  conversionSource,
  type LeadErrors,
  leadEventData,
  type LeadFields,
  validateLead,
} from "./lead_form.ts";
import { trackEvent } from "../../browser/analytics.ts";
import { currentOrigin, randomId, storedTouch, withUtm } from "../../browser/tracking.ts";
import { deliverLead, keepLead } from "../../browser/lead_outbox.ts";
import { metaEventId, pixelActive } from "../../browser/pixel.ts";

/** Delays of spec section 9: redirect 800 ms after a saved lead, 500 ms after a failed save. */
export const REDIRECT_AFTER_SAVE_MS = 800;
export const REDIRECT_AFTER_FAILURE_MS = 500;

const EMPTY: LeadFields = { name: "", email: "", whatsapp: "" };
const FIELDS = ["name", "email", "whatsapp"] as const;

export interface LeadDialogProps {
  lang: Lang;
  /** The `leadModal.*` texts and `common:nav.newTab`, in the page's language. */
  strings: Strings;
  intent: LeadIntent;
  onClosed: () => void;
}

export default function LeadDialog({ lang, strings, intent, onClosed }: LeadDialogProps) {
  const t = translator(strings);
  const dialog = useRef<HTMLDialogElement>(null);
  const inputs = useRef<Partial<Record<keyof LeadFields, HTMLInputElement | null>>>({});
  const opener = useRef<Element | null>(null);
  const [fields, setFields] = useState<LeadFields>(EMPTY);
  const [errors, setErrors] = useState<LeadErrors>({});
  const [honeypot, setHoneypot] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const planLabel = intent.kind === "plan" ? intent.planName : "Especialista";

  useEffect(() => {
    opener.current = document.activeElement;
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    inputs.current.name?.focus();
    return () => {
      if (opener.current instanceof HTMLElement) opener.current.focus();
    };
  }, []);

  function close(logged: boolean) {
    if (logged) trackEvent("lead_modal_close", "lead", planLabel);
    dialog.current?.close();
    setFields(EMPTY);
    setErrors({});
    onClosed();
  }

  function finish(target: string) {
    location.assign(target);
    close(false);
  }

  function change(field: keyof LeadFields, value: string) {
    setFields((f) => ({ ...f, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    const found = validateLead(fields);
    setErrors(found);
    const firstBad = FIELDS.find((f) => found[f]);
    if (firstBad) {
      inputs.current[firstBad]?.focus();
      return;
    }
    setSubmitting(true);
    const origin = currentOrigin();
    const eventId = pixelActive() ? metaEventId("Lead") : null;
    const createdAt = Date.now();
    const idempotencyKey = `lead_${createdAt}_${randomId(12)}`;
    const body: Record<string, unknown> = {
      name: fields.name.trim(),
      email: fields.email.trim(),
      whatsapp: fields.whatsapp.trim(),
      plan: planLabel,
      utmSource: origin.utmSource,
      utmCampaign: origin.utmCampaign,
      utmMedium: origin.utmMedium,
      page: location.href.slice(0, 2000),
      idempotencyKey,
      sessionId: origin.sessionId,
      submittedAt: createdAt,
      // The session's touch, the lead's last touch: referring host, click-id flags, first page.
      referrer: origin.referrer,
      clickIds: origin.clickIds,
      landingPage: storedTouch()?.landingPage ?? null,
    };
    if (eventId) body.eventId = eventId;
    if (honeypot) body.website = honeypot;
    // Kept before sending: even if the tab closes mid-request, a later page load re-sends it, and its
    // conversion goes with whichever send delivers it.
    keepLead({
      idempotencyKey,
      createdAt,
      body,
      conversion: {
        source: conversionSource(intent),
        label: planLabel,
        origin,
        meta: eventId ? { eventId, customData: leadEventData(intent) } : null,
      },
    });
    const result = await deliverLead(idempotencyKey);
    const target = intent.kind === "plan" ? withUtm(intent.checkoutUrl) : intent.checkoutUrl;
    if (result === "saved") {
      setTimeout(() => finish(target), REDIRECT_AFTER_SAVE_MS);
    } else {
      setTimeout(() => finish(target), REDIRECT_AFTER_FAILURE_MS);
    }
  }

  // A click on the backdrop is a click on the dialog element outside its box. Both the press and the release
  // must be there, so selecting text in a field and releasing outside does not close it.
  const pressedOnBackdrop = useRef(false);
  function onBackdrop(event: MouseEvent<HTMLDialogElement> | PointerEvent<HTMLDialogElement>): boolean {
    const el = dialog.current;
    if (!el || event.target !== el) return false;
    const box = el.getBoundingClientRect();
    return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top ||
      event.clientY > box.bottom;
  }
  function backdropPress(event: PointerEvent<HTMLDialogElement>) {
    pressedOnBackdrop.current = onBackdrop(event);
  }
  function backdropClick(event: MouseEvent<HTMLDialogElement>) {
    const released = pressedOnBackdrop.current && onBackdrop(event);
    pressedOnBackdrop.current = false;
    if (released && !submitting) close(true);
  }

  function keyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab") return;
    // Keep focus inside the dialog (showModal makes the page inert, this also keeps it off the browser UI).
    const focusable = dialog.current?.querySelectorAll<HTMLElement>(
      "button:not([disabled]), input:not([tabindex='-1']):not([disabled])",
    );
    if (!focusable?.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const field = (name: keyof LeadFields, type: string, autoComplete: string, inputMode?: "tel" | "email") => {
    const error = errors[name];
    return (
      <div className="lead-field">
        <label htmlFor={`lead-${name}`}>{t(`leadModal.fields.${name}.label`)}</label>
        <input
          ref={(el) => {
            inputs.current[name] = el;
          }}
          id={`lead-${name}`}
          name={name}
          type={type}
          inputMode={inputMode}
          autoComplete={autoComplete}
          placeholder={t(`leadModal.fields.${name}.placeholder`)}
          value={fields[name]}
          onChange={(e) => change(name, e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `lead-${name}-error` : undefined}
          aria-required="true"
          disabled={submitting}
        />
        {error && <p id={`lead-${name}-error`} className="lead-error">{t(error)}</p>}
      </div>
    );
  };

  return (
    <dialog
      ref={dialog}
      className="lead-dialog"
      aria-labelledby="lead-title"
      aria-describedby="lead-description"
      onCancel={(e) => {
        e.preventDefault(); // Escape: close through our own path so it is logged
        if (!submitting) close(true);
      }}
      onKeyDown={keyDown}
      onPointerDown={backdropPress}
      onClick={backdropClick}
    >
      <form className="lead-form" noValidate onSubmit={submit}>
        <div className="lead-head">
          <h2 id="lead-title">
            {intent.kind === "plan"
              ? t("leadModal.planTitle", { plan: intent.planName })
              : t("leadModal.specialistTitle")}
          </h2>
          <button
            type="button"
            className="lead-close"
            aria-label={t("leadModal.close")}
            onClick={() => close(true)}
            disabled={submitting}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <p id="lead-description" className="lead-description">
          {intent.kind === "plan" ? t("leadModal.planDescription") : t("leadModal.specialistDescription")}
        </p>
        {field("name", "text", "name")}
        {field("email", "email", "email", "email")}
        {field("whatsapp", "tel", "tel", "tel")}
        <div className="lead-hp" aria-hidden="true">
          <label htmlFor="lead-website">Website</label>
          <input
            id="lead-website"
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={honeypot}
            onChange={(e) => setHoneypot(e.target.value)}
          />
        </div>
        <p className="lead-privacy">
          <PolicySentence
            text={t("leadModal.privacy")}
            href={pagePath("privacy", lang)}
            note={t("common:nav.newTab")}
          />
        </p>
        <div className="lead-actions">
          <button type="button" className="btn btn-outline" onClick={() => close(true)} disabled={submitting}>
            {t("leadModal.cancel")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={submitting} aria-busy={submitting}>
            {submitting ? t("leadModal.submitting") : t("leadModal.submit")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * The privacy sentence with its `<policy>…</policy>` words as a link to the policy, in a new tab (so the
 * form stays as it is) said to screen readers. Split by hand: react-i18next's Trans would add its parser to
 * every page's first load.
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
