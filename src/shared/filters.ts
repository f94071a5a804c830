// The dashboard's filters ("filtrar por esta linha"): which dimensions a view can be narrowed to, their
// Portuguese names for the chips, and how a view (period plus filters) is written in a query string. The
// dashboard's address and the API's query use the same names, so a view's address is also the query of
// every report it shows. What each filter selects per kind of event is written in docs/ANALYTICS.md
// ("Filters").
import { z } from "./zod.ts";
import { type Channel, CHANNEL_LABELS, CHANNELS } from "./channels.ts";
import { addDays, isDay, monthOf } from "./dashboard_math.ts";
import { audienceValueLabel } from "./audience.ts";

/** Every filter, in the order chips are shown. */
export const FILTER_KEYS = [
  "channel",
  "source",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_content",
  "utm_term",
  "entry_page",
  "page",
  // Who the visitors are (migrations/00020, docs/AUDIENCE.md).
  "device",
  "browser",
  "os",
  "country",
  "region",
] as const;
export type FilterKey = typeof FILTER_KEYS[number];

/** At most one value per key; several keys combine with AND. */
export type Filters = Partial<Record<FilterKey, string>>;

/** The chip's name of each filter (the dashboard is in Portuguese). */
export const FILTER_LABELS: Record<FilterKey, string> = {
  channel: "Canal",
  source: "Origem",
  utm_source: "Origem UTM",
  utm_medium: "Mídia UTM",
  utm_campaign: "Campanha UTM",
  utm_content: "Criativo (utm_content)",
  utm_term: "Palavra-chave (utm_term)",
  entry_page: "Página de entrada",
  page: "Página",
  device: "Dispositivo",
  browser: "Navegador",
  os: "Sistema",
  country: "País",
  region: "Estado",
};

/** Query-string name of each filter: `f_` keeps them apart from a landing URL's own utm_* parameters. */
export const FILTER_PARAM = "f_";
export const filterParam = (key: FilterKey) => `${FILTER_PARAM}${key}`;

/** Longest filter value accepted (the longest stored page key is 2,000 characters). */
export const MAX_FILTER_LENGTH = 2000;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const filterValue = z.string().min(1, "must not be empty").max(
  MAX_FILTER_LENGTH,
  `must be at most ${MAX_FILTER_LENGTH} characters`,
).refine((v) => !CONTROL.test(v), "must not contain control characters");

/**
 * The filters of a query string, by their parameter names (`f_channel`, `f_utm_source`...): a bad value is a
 * 400 naming its parameter. Merged into each report's own query schema (schemas.ts).
 */
export const filterQuery = z.object({
  ...Object.fromEntries(FILTER_KEYS.map((k) => [filterParam(k), filterValue.optional()])),
  [filterParam("channel")]: z.enum(CHANNELS, `must be one of ${CHANNELS.join(", ")}`).optional(),
  [filterParam("page")]: filterValue.refine((v) => v.startsWith("/"), "must be a path, such as /pt-br")
    .optional(),
  [filterParam("entry_page")]: filterValue.refine((v) => v.startsWith("/"), "must be a path, such as /pt-br")
    .optional(),
}) as z.ZodType<Partial<Record<string, string>>>;

/** The filters of a parsed query (or of URLSearchParams entries); unknown parameters are ignored. */
export function filtersOf(query: Partial<Record<string, string | undefined>>): Filters {
  const out: Filters = {};
  for (const k of FILTER_KEYS) {
    const v = query[filterParam(k)];
    if (v) out[k] = v;
  }
  return out;
}

/** True when no filter is set (the reports then read the roll-ups). */
export function noFilters(f: Filters | undefined): boolean {
  return !f || FILTER_KEYS.every((k) => !f[k]);
}

/** The set filters, in FILTER_KEYS order. */
export function filterEntries(f: Filters | undefined): [FilterKey, string][] {
  return FILTER_KEYS.filter((k) => f?.[k]).map((k) => [k, f![k]!]);
}

/** Adds the filters to a query string, in FILTER_KEYS order. */
export function writeFilters(q: URLSearchParams, f: Filters | undefined): URLSearchParams {
  for (const [k, v] of filterEntries(f)) q.set(filterParam(k), v);
  return q;
}

/** A chip's value as the reader knows it: channel ids by their names, "direto" as Direto. */
export function filterValueLabel(key: FilterKey, value: string): string {
  if (key === "channel") return CHANNEL_LABELS[value as Channel] ?? value;
  if (key === "source" && value === "direto") return "Direto";
  if (key === "device" || key === "country" || key === "region") return audienceValueLabel(key, value);
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// The period in the address

/** The dashboard's period presets: the address names one by its id (`periodo=ultimos-7-dias`). */
export const PERIOD_PRESETS = [
  ["hoje", "Hoje"],
  ["ontem", "Ontem"],
  ["ultimos-7-dias", "Últimos 7 dias"],
  ["ultimos-30-dias", "Últimos 30 dias"],
  ["este-mes", "Este mês"],
  ["mes-passado", "Mês passado"],
  ["este-ano", "Este ano"],
  ["ultimos-12-meses", "Últimos 12 meses"],
] as const;
export type PresetId = typeof PERIOD_PRESETS[number][0];
export const PRESET_PARAM = "periodo";

/** The days of a preset on the local day `today` (yyyy-MM-dd). */
export function presetRange(id: PresetId, today: string): { start: string; end: string } {
  switch (id) {
    case "hoje":
      return { start: today, end: today };
    case "ontem":
      return { start: addDays(today, -1), end: addDays(today, -1) };
    case "ultimos-7-dias":
      return { start: addDays(today, -6), end: today };
    case "ultimos-30-dias":
      return { start: addDays(today, -29), end: today };
    case "este-mes":
      return monthOf(today);
    case "mes-passado":
      return monthOf(addDays(monthOf(today).start, -1));
    case "este-ano":
      return { start: `${today.slice(0, 4)}-01-01`, end: `${today.slice(0, 4)}-12-31` };
    case "ultimos-12-meses": {
      // The 12 months ending today: from the day after the same date a year ago.
      const y = Number(today.slice(0, 4)) - 1;
      const sameDay = `${y}${today.slice(4)}`;
      return { start: addDays(isDay(sameDay) ? sameDay : `${y}-02-28`, 1), end: today };
    }
  }
}

/** A dashboard view: the period (a preset, or custom dates) and the filters. */
export interface View {
  start: string;
  end: string;
  /** The preset the period came from, if any: the address keeps it, so a link to "Hoje" stays today. */
  preset?: PresetId;
  filters: Filters;
}

/**
 * The view of an address's query string on the local day `today`: a known preset wins, then valid custom
 * dates (startDate, endDate, start not after end), else this month (docs/PRODUCT.md, _Dashboard_).
 */
export function readView(search: string | URLSearchParams, today: string): View {
  const q = typeof search === "string" ? new URLSearchParams(search) : search;
  const filters = filtersOf(Object.fromEntries(q));
  if (filters.channel && !(CHANNELS as readonly string[]).includes(filters.channel)) delete filters.channel;
  const preset = PERIOD_PRESETS.find(([id]) => id === q.get(PRESET_PARAM))?.[0];
  if (preset) return { ...presetRange(preset, today), preset, filters };
  const start = q.get("startDate") ?? "", end = q.get("endDate") ?? "";
  if (isDay(start) && isDay(end) && start <= end) return { start, end, filters };
  return { ...monthOf(today), preset: "este-mes", filters };
}

/** The query string of a view (no leading "?"); this month with no filters is the empty string. */
export function writeView(v: View): string {
  const q = new URLSearchParams();
  if (v.preset) {
    if (v.preset !== "este-mes") q.set(PRESET_PARAM, v.preset);
  } else {
    q.set("startDate", v.start);
    q.set("endDate", v.end);
  }
  return writeFilters(q, v.filters).toString();
}
