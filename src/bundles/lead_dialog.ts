// The lead dialog's behaviour, in plain DOM over the server's markup (src/ui/lead/LeadDialog.tsx). A chunk of
// its own (about 3 KB gzip), fetched when the plans come near the screen or on the first touch anywhere
// (src/bundles/lead.ts), so it is in the browser before a plan tap on a slow phone.
//
// Why not React (measured with bench/slow_phone.ts, 400 kbps, 400 ms RTT, CPU 4×, docs/PERFORMANCE.md): the
// React island cost about 64 KB gzip (React DOM, the island, the dialog), over 1.3 s of transfer alone at
// 400 kbps and then a hydration on a slow CPU; prefetching it would take that bandwidth from the page's own
// images and font while the visitor reads. This chunk is one twentieth of it and opens the dialog in one
// frame. What the dialog does is in docs/PRODUCT.md, _Lead modal_: fields, validation keys, texts, the
// 800/500 ms redirects; e2e/lead_modal_test.ts holds it to that.
import { trackEvent } from "../browser_logic/data_layer.ts";
import { currentOrigin, randomId, storedTouch, withUtm } from "../browser_logic/tracking.ts";
import { deliverLead, keepLead } from "../browser_logic/lead_outbox.ts";
import { metaEventId, pixelActive } from "../browser_logic/pixel.ts";
import type { LeadIntent } from "../ui/lead/lead_events.ts";
import { type Strings, translator } from "../ui/lead/strings.ts";
import { conversionSource, leadEventData, type LeadFields, validateLead } from "../ui/lead/lead_form.ts";

/** Delays of docs/PRODUCT.md, _Timings_: redirect 800 ms after a saved lead, 500 ms after a failed save. */
export const REDIRECT_AFTER_SAVE_MS = 800;
export const REDIRECT_AFTER_FAILURE_MS = 500;

const FIELDS = ["name", "email", "whatsapp"] as const;
/** While the dialog is open the page behind it does not scroll (styles: `html.lead-open`). */
const LOCK_CLASS = "lead-open";

interface Parts {
  dialog: HTMLDialogElement;
  form: HTMLFormElement;
  title: HTMLElement;
  description: HTMLElement;
  submit: HTMLButtonElement;
  inputs: Record<keyof LeadFields, HTMLInputElement>;
  honeypot: HTMLInputElement;
  t: ReturnType<typeof translator>;
}

let parts: Parts | null = null;
let intent: LeadIntent | null = null;
let opener: HTMLElement | null = null;
let submitting = false;

function planLabel(i: LeadIntent): string {
  return i.kind === "plan" ? i.planName : "Especialista";
}

/** Finds the server's dialog and wires it (once); null on a page without one. */
function wire(): Parts | null {
  if (parts) return parts;
  const dialog = document.getElementById("lead-dialog");
  if (!(dialog instanceof HTMLDialogElement)) return null;
  let strings: Strings = {};
  try {
    strings = JSON.parse(dialog.dataset.strings ?? "{}");
  } catch {
    // the keys themselves show, as i18next shows a missing key
  }
  const q = <T extends Element>(selector: string) => dialog.querySelector<T>(selector)!;
  parts = {
    dialog,
    form: q<HTMLFormElement>("form"),
    title: q<HTMLElement>("#lead-title"),
    description: q<HTMLElement>("#lead-description"),
    submit: q<HTMLButtonElement>("button[type=submit]"),
    inputs: {
      name: q<HTMLInputElement>("#lead-name"),
      email: q<HTMLInputElement>("#lead-email"),
      whatsapp: q<HTMLInputElement>("#lead-whatsapp"),
    },
    honeypot: q<HTMLInputElement>("#lead-website"),
    t: translator(strings),
  };
  const p = parts;
  p.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void submit(p);
  });
  // Typing in a field clears that field's error (docs/PRODUCT.md, _Lead modal_).
  for (const name of FIELDS) p.inputs[name].addEventListener("input", () => showError(p, name, undefined));
  for (const button of dialog.querySelectorAll("[data-close]")) {
    button.addEventListener("click", () => close(true));
  }
  // Escape: closed through our own path, so it is logged (and not while sending).
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    if (!submitting) close(true);
  });
  // The browser may close it by itself (a form method=dialog, a future close request): the page is unlocked.
  dialog.addEventListener("close", () => document.documentElement.classList.remove(LOCK_CLASS));
  // A click on the backdrop is a click on the dialog element outside its box. Both the press and the
  // release must be there, so selecting text in a field and releasing outside does not close it.
  let pressedOnBackdrop = false;
  const onBackdrop = (event: MouseEvent) => {
    if (event.target !== dialog) return false;
    const box = dialog.getBoundingClientRect();
    return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top ||
      event.clientY > box.bottom;
  };
  dialog.addEventListener("pointerdown", (event) => pressedOnBackdrop = onBackdrop(event));
  dialog.addEventListener("click", (event) => {
    const released = pressedOnBackdrop && onBackdrop(event);
    pressedOnBackdrop = false;
    if (released && !submitting) close(true);
  });
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    // Keep focus inside the dialog (showModal makes the page inert; this keeps it off the browser's UI too).
    const focusable = dialog.querySelectorAll<HTMLElement>(
      "a[href], button:not([disabled]), input:not([tabindex='-1']):not([disabled])",
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  // Tests and tools wait for this: a tap from here on only has to show the dialog.
  dialog.dataset.wired = "true";
  return p;
}

/** Shows (or, with no key, removes) a field's error under it. */
function showError(p: Parts, name: keyof LeadFields, key: string | undefined): void {
  const input = p.inputs[name];
  const id = `lead-${name}-error`;
  document.getElementById(id)?.remove();
  if (!key) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    return;
  }
  const message = document.createElement("p");
  message.id = id;
  message.className = "lead-error";
  message.textContent = p.t(key);
  input.after(message);
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", id);
}

function setSubmitting(p: Parts, on: boolean): void {
  submitting = on;
  for (const el of p.dialog.querySelectorAll<HTMLButtonElement | HTMLInputElement>("button, input")) {
    if (el !== p.honeypot) el.disabled = on;
  }
  p.submit.textContent = p.t(on ? "leadModal.submitting" : "leadModal.submit");
  if (on) p.submit.setAttribute("aria-busy", "true");
  else p.submit.removeAttribute("aria-busy");
}

function reset(p: Parts): void {
  p.form.reset();
  for (const name of FIELDS) showError(p, name, undefined);
  setSubmitting(p, false);
}

/**
 * Wires the dialog ahead of the first tap (lead.ts calls it when the page is idle after the prefetch): the
 * first opening then only shows it. Wiring and compiling this chunk's functions took about 30 ms of the tap's
 * answer on the slow phone of bench/slow_phone.ts.
 */
export function prepareLeadDialog(): void {
  // Only the wiring: a dialog the visitor opened in the meantime keeps what they typed.
  wire();
}

/** Opens the dialog for a plan or the specialist; `from` gets the focus back when it closes. */
export function openLeadDialog(next: LeadIntent, from: HTMLElement | null = null): boolean {
  const p = wire();
  if (!p || submitting) return false;
  intent = next;
  opener = from;
  reset(p);
  p.title.textContent = next.kind === "plan"
    ? p.t("leadModal.planTitle", { plan: next.planName })
    : p.t("leadModal.specialistTitle");
  p.description.textContent = p.t(
    next.kind === "plan" ? "leadModal.planDescription" : "leadModal.specialistDescription",
  );
  for (const line of p.dialog.querySelectorAll<HTMLElement>(".lead-privacy")) {
    line.hidden = line.dataset.for !== next.kind;
  }
  // The name field has `autofocus`: showModal() focuses it (LeadDialog.tsx); focus() only when already open.
  if (!p.dialog.open) p.dialog.showModal();
  if (document.activeElement !== p.inputs.name) p.inputs.name.focus();
  // The page behind is locked once the dialog is on screen: locking changes the root's overflow, a relayout
  // the dialog's first frame does not wait for.
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (p.dialog.open) document.documentElement.classList.add(LOCK_CLASS);
    })
  );
  return true;
}

function close(logged: boolean): void {
  const p = parts;
  if (!p) return;
  if (logged && intent) trackEvent("lead_modal_close", "lead", planLabel(intent));
  p.dialog.close();
  document.documentElement.classList.remove(LOCK_CLASS);
  reset(p);
  intent = null;
  if (opener?.isConnected) opener.focus();
  opener = null;
}

async function submit(p: Parts): Promise<void> {
  const current = intent;
  if (submitting || !current) return;
  const fields: LeadFields = {
    name: p.inputs.name.value,
    email: p.inputs.email.value,
    whatsapp: p.inputs.whatsapp.value,
  };
  const found = validateLead(fields);
  for (const name of FIELDS) showError(p, name, found[name]);
  const firstBad = FIELDS.find((f) => found[f]);
  if (firstBad) {
    p.inputs[firstBad].focus();
    return;
  }
  setSubmitting(p, true);
  const label = planLabel(current);
  const origin = currentOrigin();
  const eventId = pixelActive() ? metaEventId("Lead") : null;
  const createdAt = Date.now();
  const idempotencyKey = `lead_${createdAt}_${randomId(12)}`;
  const body: Record<string, unknown> = {
    name: fields.name.trim(),
    email: fields.email.trim(),
    whatsapp: fields.whatsapp.trim(),
    plan: label,
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
  // The WhatsApp consent box is there only when WhatsApp messages are configured; unticked, it says no.
  const consent = p.dialog.querySelector<HTMLInputElement>("#lead-whatsapp-consent");
  if (consent) body.whatsappConsent = consent.checked;
  if (eventId) body.eventId = eventId;
  if (p.honeypot.value) body.website = p.honeypot.value;
  // Kept before sending: even if the tab closes mid-request, a later page load re-sends it, and its
  // conversion goes with whichever send delivers it.
  keepLead({
    idempotencyKey,
    createdAt,
    body,
    conversion: {
      source: conversionSource(current),
      label,
      origin,
      meta: eventId ? { eventId, customData: leadEventData(current) } : null,
    },
  });
  const result = await deliverLead(idempotencyKey);
  const target = current.kind === "plan" ? withUtm(current.checkoutUrl) : current.checkoutUrl;
  setTimeout(() => {
    location.assign(target);
    close(false);
  }, result === "saved" ? REDIRECT_AFTER_SAVE_MS : REDIRECT_AFTER_FAILURE_MS);
}
