// The weekly report's e-mail (docs: README, "The weekly report"): a plain HTML message built for mail clients
// (one centred table, inline styles only, no image, no script, no web font) and the same facts as text, in
// Portuguese with pt-BR numbers. It only ever shows counts: the figures carry no lead's name, e-mail or phone.
import { changePercent, round1 } from "../shared/dashboard_math.ts";
import type { WeeklyReport, WeeklyTable } from "./weekly_report.ts";

export interface WeeklyMessage {
  subject: string;
  text: string;
  html: string;
}

const int = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });
const dec = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 1.234 */
export function formatCount(n: number): string {
  return int.format(n);
}

/** 3,5% */
export function formatRate(n: number): string {
  return `${dec.format(n)}%`;
}

/** "16/11" or "16/11/2026". */
function dayText(day: string, withYear: boolean): string {
  const [y, m, d] = day.split("-");
  return withYear ? `${d}/${m}/${y}` : `${d}/${m}`;
}

/** "16/11 a 22/11/2026" (both years when the week crosses one). */
export function weekText(range: { start: string; end: string }): string {
  const sameYear = range.start.slice(0, 4) === range.end.slice(0, 4);
  return `${dayText(range.start, !sameYear)} a ${dayText(range.end, true)}`;
}

type Tone = "up" | "down" | "same" | "none";

/**
 * A change against the week before, as the dashboard writes it: "▲ 12,5%", "▼ 3,0 p.p." for a rate, "novo"
 * when there was nothing before, "—" for a rate with nothing to compare.
 */
export function deltaText(current: number, previous: number, points = false, noBase = false): {
  text: string;
  tone: Tone;
} {
  if (noBase) return { text: "—", tone: "none" };
  const change = points ? round1(current - previous) : changePercent(current, previous);
  if (change === null) return { text: "novo", tone: "up" };
  if (change === 0) return { text: points ? "= 0 p.p." : "= 0%", tone: "same" };
  const size = points ? `${dec.format(Math.abs(change))} p.p.` : formatRate(Math.abs(change));
  return change > 0 ? { text: `▲ ${size}`, tone: "up" } : { text: `▼ ${size}`, tone: "down" };
}

const TONE_COLOR: Record<Tone, string> = { up: "#047857", down: "#b91c1c", same: "#4b5563", none: "#4b5563" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const FONT = "font-family:Arial,Helvetica,sans-serif";
const CELL = "padding:8px 10px;border-bottom:1px solid #e5e7eb;font-size:14px;line-height:20px";
const NUM = `${CELL};text-align:right;white-space:nowrap`;

function deltaHtml(d: { text: string; tone: Tone }): string {
  return `<span style="color:${TONE_COLOR[d.tone]};font-size:12px;white-space:nowrap">${
    escapeHtml(d.text)
  }</span>`;
}

function tableHtml(table: WeeklyTable): string {
  const head =
    `<tr><th align="left" style="${CELL};font-size:12px;color:#4b5563">${escapeHtml(table.first)}</th>` +
    table.columns.map((c) =>
      `<th align="right" style="${NUM};font-size:12px;color:#4b5563">${escapeHtml(c)}</th>`
    )
      .join("") +
    "</tr>";
  const body = table.rows.map((row) =>
    `<tr><td style="${CELL};word-break:break-word">${escapeHtml(row.label)}</td>` +
    row.cells.map((c) =>
      `<td align="right" style="${NUM}">${formatCount(c.current)}<br>${
        deltaHtml(deltaText(c.current, c.previous))
      }</td>`
    ).join("") + "</tr>"
  ).join("");
  return `<h2 style="${FONT};font-size:16px;margin:24px 0 8px;color:#111827">${
    escapeHtml(table.title)
  }</h2>` +
    (table.rows.length === 0
      ? `<p style="${FONT};font-size:14px;color:#4b5563;margin:0">Nada registrado na semana.</p>`
      : `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ` +
        `style="${FONT};border-collapse:collapse;width:100%;color:#111827">${head}${body}</table>`);
}

function tableText(table: WeeklyTable): string[] {
  if (table.rows.length === 0) return [table.title, "  Nada registrado na semana.", ""];
  return [
    `${table.title} (${table.columns.join(", ")})`,
    ...table.rows.map((row) =>
      `  ${row.label}: ${
        row.cells.map((c) => `${formatCount(c.current)} (${deltaText(c.current, c.previous).text})`).join(
          ", ",
        )
      }`
    ),
    "",
  ];
}

/** A figure's value as written. */
function valueText(value: number, rate: boolean): string {
  return rate ? formatRate(value) : formatCount(value);
}

/** The subject, text and HTML of one week's report. */
export function weeklyMessage(report: WeeklyReport, brand: string): WeeklyMessage {
  const week = weekText(report.range);
  const previous = weekText(report.previous);
  const weekNo = Number(report.week.slice(6));
  const subject = `${brand}: relatório da semana ${weekNo} (${week})`;
  const intro =
    `Os números do site de ${week} (semana ${weekNo}), comparados com a semana anterior (${previous}).`;
  const tables = [report.channels, report.sources, report.pages, ...(report.states ? [report.states] : [])];
  const failed = report.failedDeliveries;
  const failedLine = failed.current === 0
    ? "Nenhum lead da semana ficou sem entrega às ferramentas de vendas."
    : `${formatCount(failed.current)} ${
      failed.current === 1 ? "lead da semana não foi entregue" : "leads da semana não foram entregues"
    } a alguma ferramenta de vendas (semana anterior: ${
      formatCount(failed.previous)
    }). Veja no painel e use "Reenviar".`;

  const text = [
    `Relatório semanal — ${week}`,
    "",
    intro,
    "",
    ...report.figures.map((f) =>
      `${f.name}: ${valueText(f.current, !!f.rate)} (${
        deltaText(f.current, f.previous, f.rate, f.noBase).text
      }; semana anterior: ${valueText(f.previous, !!f.rate)})`
    ),
    "",
    ...tables.flatMap(tableText),
    "Entregas de leads",
    `  ${failedLine}`,
    "",
    `Ver esta semana no painel: ${report.dashboardUrl}`,
    "",
    `Você recebe este e-mail toda segunda-feira às 08:00 (${report.timeZone}). Para parar, desligue ` +
    `"Relatório semanal por e-mail" no painel.`,
  ].join("\n");

  const figureRows = report.figures.map((f) => {
    const d = deltaText(f.current, f.previous, f.rate, f.noBase);
    return `<tr><td style="${CELL}">${escapeHtml(f.name)}</td>` +
      `<td align="right" style="${NUM};font-size:18px;font-weight:bold">${
        valueText(f.current, !!f.rate)
      }</td>` +
      `<td align="right" style="${NUM}">${deltaHtml(d)}<br><span style="font-size:12px;color:#4b5563">` +
      `antes: ${valueText(f.previous, !!f.rate)}</span></td></tr>`;
  }).join("");

  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f3f4f6">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6">` +
    `<tr><td align="center" style="padding:16px 8px">` +
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" ` +
    `style="${FONT};width:100%;max-width:600px;background:#ffffff;border-collapse:collapse;color:#111827">` +
    `<tr><td style="padding:20px 20px 8px;background:#075e54;color:#ffffff">` +
    `<p style="margin:0;font-size:13px;letter-spacing:0.5px">${escapeHtml(brand)} · RELATÓRIO SEMANAL</p>` +
    `<h1 style="margin:4px 0 0;font-size:22px;line-height:28px">${escapeHtml(week)}</h1>` +
    `<p style="margin:4px 0 12px;font-size:13px">Semana ${weekNo} · comparada com ${
      escapeHtml(previous)
    }</p>` +
    `</td></tr>` +
    `<tr><td style="padding:16px 20px 24px">` +
    `<p style="margin:0 0 12px;font-size:14px;line-height:20px">${escapeHtml(intro)}</p>` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ` +
    `style="${FONT};border-collapse:collapse;width:100%;color:#111827">${figureRows}</table>` +
    tables.map(tableHtml).join("") +
    `<h2 style="${FONT};font-size:16px;margin:24px 0 8px;color:#111827">Entregas de leads</h2>` +
    `<p style="margin:0;font-size:14px;line-height:20px;color:${failed.current ? "#b91c1c" : "#111827"}">` +
    `${escapeHtml(failedLine)}</p>` +
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0 0">` +
    `<tr><td style="background:#128c7e;border-radius:6px">` +
    `<a href="${escapeHtml(report.dashboardUrl)}" style="display:inline-block;padding:12px 20px;` +
    `color:#ffffff;text-decoration:none;font-weight:bold;font-size:15px">Ver esta semana no painel</a>` +
    `</td></tr></table>` +
    `<p style="margin:16px 0 0;font-size:12px;line-height:18px;color:#4b5563">` +
    `Você recebe este e-mail toda segunda-feira às 08:00 (${escapeHtml(report.timeZone)}). Para parar, ` +
    `desligue "Relatório semanal por e-mail" no painel.</p>` +
    `</td></tr></table></td></tr></table></body></html>`;
  return { subject, text, html };
}
