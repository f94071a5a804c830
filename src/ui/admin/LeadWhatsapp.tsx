// A lead card's WhatsApp line (issue 31): what became of the template message the lead agreed to, step by
// step in ANALYTICS_TZ ("WhatsApp: enviado 14:02 · entregue 14:02 · lido 14:05 · respondeu 14:09"), or why
// none went; when the consent was given; and a "Conversar no WhatsApp" link to the normalised number.
import type { Lead, LeadWhatsapp as Facts } from "../../shared/admin_schemas.ts";
import { formatDayTime, visibleText } from "./format.ts";

/** "14:02", or "27/11 14:02" when the step came on another day than the lead. */
function stepTime(iso: string, leadAt: string): string {
  const [day, time] = formatDayTime(iso).split(" às ");
  return day === formatDayTime(leadAt).split(" às ")[0] ? time : `${day} ${time}`;
}

/** What the line says, and whether it is bad news (a red line) or under way (a grey one). */
export function whatsappStatusLine(
  w: Facts,
  submittedAt: string,
): { text: string; tone: "ok" | "wait" | "bad" } {
  if (w.status === "failed") return { text: `WhatsApp: ${w.error ?? "não enviado"}`, tone: "bad" };
  if (w.status === "pending") return { text: "WhatsApp: aguardando envio", tone: "wait" };
  if (w.status === null) {
    return { text: w.consentAt ? "WhatsApp: aguardando envio" : "WhatsApp: sem consentimento", tone: "wait" };
  }
  const steps: Array<[string, string | null]> = [
    ["enviado", w.sentAt ?? w.acceptedAt],
    ["entregue", w.deliveredAt],
    ["lido", w.readAt],
    ["respondeu", w.repliedAt],
  ];
  const parts = steps.filter(([, at]) => at).map(([word, at]) => `${word} ${stepTime(at!, submittedAt)}`);
  // Meta accepted it, then could not deliver it (the webhook's "failed", with its error).
  if (w.failedAt && !w.deliveredAt) {
    parts.push(`falhou ${stepTime(w.failedAt, submittedAt)}${w.error ? ` (${w.error})` : ""}`);
    return { text: `WhatsApp: ${parts.join(" · ")}`, tone: "bad" };
  }
  return { text: `WhatsApp: ${parts.join(" · ")}`, tone: "ok" };
}

/** `https://wa.me/<digits>` of a number in E.164. */
export function waMeOf(e164: string): string {
  return `https://wa.me/${e164.replace(/\D/g, "")}`;
}

export function LeadWhatsapp({ lead }: { lead: Lead }) {
  const w = lead.whatsappContact;
  if (!w) return null;
  const line = whatsappStatusLine(w, lead.submittedAt);
  return (
    <div className={`lead-wa lead-wa-${line.tone}`} data-testid="lead-wa">
      <p className="lead-wa-status" data-testid="lead-wa-status">{visibleText(line.text)}</p>
      {w.consentAt && (
        <p className="lead-wa-consent admin-muted" data-testid="lead-wa-consent">
          Consentimento para WhatsApp em {formatDayTime(w.consentAt)}
        </p>
      )}
      {w.e164 && (
        <a
          className="lead-wa-chat"
          href={waMeOf(w.e164)}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="lead-wa-chat"
        >
          Conversar no WhatsApp
        </a>
      )}
    </div>
  );
}
