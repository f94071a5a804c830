// The lead list as a CSV file. By default in the layout a spreadsheet set to Brazilian Portuguese opens as
// columns with a double click (Excel and LibreOffice): UTF-8 with a BOM, `;` between cells, a decimal comma,
// CRLF line ends. `rfc4180` is the plain layout for scripts and import tools: no BOM, `,`, a decimal point.
// Both quote every cell and neutralise formula starts (CSV injection).
import { leadState } from "../shared/br_states.ts";
import type { LeadRow } from "../db/lead_list.ts";
import { localStamp } from "../shared/dashboard_math.ts";
import { channelLabel } from "../shared/channels.ts";
import type { CsvLayout } from "../shared/admin_schemas.ts";
import { planPrice } from "../site.ts";

interface Format {
  bom: string;
  separator: string;
  decimal: string;
}

const FORMATS: Record<CsvLayout, Format> = {
  "excel-br": { bom: "\uFEFF", separator: ";", decimal: "," },
  "rfc4180": { bom: "", separator: ",", decimal: "." },
};

const CSV_COLUMNS: [string, (l: LeadRow, tz: string) => Cell][] = [
  ["Data", (l, tz) => localStamp(l.submittedAt, tz)],
  ["Nome", (l) => l.name],
  ["E-mail", (l) => l.email],
  ["WhatsApp", (l) => l.whatsapp],
  ["Plano", (l) => l.planLabel || l.plan],
  // The plan's monthly price today (what the Meta Lead event reports as the lead's value); none for the
  // specialist and unknown plans.
  ["Valor mensal do plano (R$)", (l) => planPrice(l.plan)],
  ["Origem (utm_source)", (l) => l.utmSource],
  ["Campanha (utm_campaign)", (l) => l.utmCampaign],
  ["Mídia (utm_medium)", (l) => l.utmMedium],
  ...touchColumns("Primeiro toque", "first"),
  ...touchColumns("Último toque", "last"),
  // Added after the others (issue 29), so a column's position never changes for an existing import.
  ["Criativo (utm_content)", (l) => l.utmContent],
  ["Palavra-chave (utm_term)", (l) => l.utmTerm],
  // Issue 30: the state of the WhatsApp number's DDD (shared/br_states.ts), empty for a foreign number.
  ["Estado (DDD do WhatsApp)", (l) => leadState(l.whatsapp, l.page)],
];

/** A lead's first or last touch as CSV columns: source, medium, campaign, channel, landing page. */
function touchColumns(title: string, t: "first" | "last"): [string, (l: LeadRow) => Cell][] {
  return [
    [`${title}: origem`, (l) => l[`${t}Source`]],
    [`${title}: mídia`, (l) => l[`${t}Medium`]],
    [`${title}: campanha`, (l) => l[`${t}Campaign`]],
    [`${title}: canal`, (l) => {
      const channel = l[`${t}Channel`];
      return channel ? channelLabel(channel) : null;
    }],
    [`${title}: página de entrada`, (l) => l[`${t}LandingPage`]],
  ];
}

// What spreadsheets read as the start of a formula (OWASP, CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
// A phone number as people type it: an optional +, then only digits, spaces and ( ) - . (8 to 15 digits).
// Nothing in it can call a function or reach a cell, so it is kept as typed, + included.
const PHONE = /^\+?\d[\d ().-]*$/;

function isPhone(value: string): boolean {
  if (!PHONE.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 8 && digits <= 15;
}

/**
 * One text cell: always quoted (RFC 4180), so no separator or line break inside it can start a new cell or
 * row; and a formula start neutralised with a leading apostrophe, except in a phone number.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !isPhone(value) ? "'" + value : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A number with two decimals and the layout's decimal mark, no thousands separator ("1297,50"). */
function csvNumber(value: number, format: Format): string {
  return `"${value.toFixed(2).replace(".", format.decimal)}"`;
}

/** A cell's value: typed text (neutralised), a number we computed (decimal mark of the layout) or nothing. */
export type Cell = string | number | null;

/** One line of the layout: its cells, quoted, between its separators, ending in CRLF. */
export function csvRow(cells: Cell[], layout: CsvLayout): string {
  const format = FORMATS[layout];
  const quoted = cells.map((v) =>
    v === null ? '""' : typeof v === "number" ? csvNumber(v, format) : csvCell(v)
  );
  return quoted.join(format.separator) + "\r\n";
}

/** Leads as CSV in a layout: the layout's BOM, a header row, then one row per lead. */
export function leadsCsv(leads: LeadRow[], timeZone: string, layout: CsvLayout = "excel-br"): string {
  let out = FORMATS[layout].bom + csvRow(CSV_COLUMNS.map(([title]) => title), layout);
  for (const lead of leads) out += csvRow(CSV_COLUMNS.map(([, get]) => get(lead, timeZone)), layout);
  return out;
}
