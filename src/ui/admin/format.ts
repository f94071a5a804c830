import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale/pt-BR";
import { localStamp, todayIn } from "../../shared/dashboard_math.ts";
import { plainAddress } from "../../shared/email.ts";

// The server counts days in ANALYTICS_TZ, so the dashboard shows instants and "today" in that zone too, not
// the browser's (a lead at 23:30 in São Paulo belongs to that day wherever the administrator is).
let timeZone = "America/Sao_Paulo";

/** Sets the zone every date of the dashboard is shown in (the page's config, at boot). */
export function setAnalyticsTimeZone(zone: string): void {
  timeZone = zone;
}

const integer = new Intl.NumberFormat("pt-BR");
const oneDecimal = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 12.345 */
export function formatInt(n: number): string {
  return integer.format(n);
}

/** 1,5 (averages and rates have one decimal: docs/PRODUCT.md, _Dashboard_). */
export function formatDecimal(n: number): string {
  return oneDecimal.format(n);
}

/** 44,4% */
export function formatPercent(n: number): string {
  return `${oneDecimal.format(n)}%`;
}

/** A yyyy-MM-dd day as dd/MM/yyyy. */
export function formatDay(day: string): string {
  return format(parseISO(day), "dd/MM/yyyy", { locale: ptBR });
}

/** A yyyy-MM-dd day as dd/MM (chart axis). */
export function formatShortDay(day: string): string {
  return format(parseISO(day), "dd/MM", { locale: ptBR });
}

/**
 * What a figure is compared with, for under it: "vs 01/10–26/10", "vs 25/11 até 09:00" (a day cut at the time
 * the current period has reached), "vs 01/10–26/10 (26/10 até 09:00)".
 */
export function formatComparison(c: { start: string; end: string; until?: string | null }): string {
  const days = c.start === c.end
    ? formatShortDay(c.start)
    : `${formatShortDay(c.start)}–${formatShortDay(c.end)}`;
  if (!c.until) return `vs ${days}`;
  const time = c.until.slice(0, 5);
  return c.start === c.end ? `vs ${days} até ${time}` : `vs ${days} (${formatShortDay(c.end)} até ${time})`;
}

/** A submission instant as dd/MM/yyyy 'às' HH:mm in the analytics time zone. */
export function formatSubmitted(iso: string): string {
  return localStamp(iso, timeZone, " às ");
}

/** An instant as "23/11 às 09:26" in the analytics time zone (a lead card already shows the year). */
export function formatDayTime(iso: string): string {
  const [day, time] = localStamp(iso, timeZone, " às ").split(" às ");
  return `${day.slice(0, 5)} às ${time}`;
}

/** A coming instant in the analytics time zone: "às 14:05" today, "em 27/11 às 00:05" on another day. */
export function formatUpcoming(iso: string, now = new Date()): string {
  const [day, time] = localStamp(iso, timeZone, " às ").split(" às ");
  return day === localStamp(now.toISOString(), timeZone).split(" ")[0]
    ? `às ${time}`
    : `em ${day.slice(0, 5)} às ${time}`;
}

/** Today's date in the analytics time zone, yyyy-MM-dd. */
export function today(): string {
  return todayIn(timeZone);
}

// Bidi controls (embeddings, overrides, isolates, marks) make typed text display in another order:
// "\u202Egnp.exe" shows as "exe.png".
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** Visitor-typed text for display: each bidi control shown as its code point, so it cannot disguise the text. */
export function visibleText(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase()}⟩`);
}

/**
 * The `mailto:` link for a lead's e-mail, or null when it is not one plain address (shown as text then): a
 * `victim@example.com?bcc=attacker@evil.example` lead must not copy anyone in. The same rule decides the
 * sales e-mail's `Reply-To` (shared/email.ts).
 */
export function mailtoHref(email: string): string | null {
  const address = plainAddress(email);
  return address ? `mailto:${address}` : null;
}
