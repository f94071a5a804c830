// The dashboard's panels in full: every ranking page by page (with a search), and every panel's rows as a
// CSV file in the leads CSV's layouts (services/leads_csv.ts). One table of panels, each with its rows and
// its columns, serves every export: a new panel is one entry in PANELS.
import type { Db } from "../db/client.ts";
import type { DayRange } from "../db/dashboard_queries.ts";
import { rankingPage, type RankItem, type RankPage, type RolledRanking } from "../db/rankings.ts";
import { chartDays, mergeDaily, todayIn } from "../shared/dashboard_math.ts";
import { channelLabel } from "../shared/channels.ts";
import { conversionRate, METRICS, sourceLabel, WORDS } from "../shared/metrics.ts";
import type { CsvLayout, PanelExport } from "../shared/admin_schemas.ts";
import { type Cell, csvRow } from "./leads_csv.ts";
import {
  clickSeries,
  comparisonOf,
  conversionByUtmSource,
  leadSeries,
  periodSummary,
  uniqueVisitSeries,
  utmDetailRows,
} from "./dashboard_reports.ts";
import { channelReport } from "./traffic_reports.ts";
import type { UtmDetailRow } from "../db/utm_detail.ts";
import { rankingUnderFilters, rankingWithPreviousUnderFilters } from "../db/filter_ranks.ts";
import { type Filters, noFilters } from "../shared/filters.ts";

/** The rankings of the dashboard, by the path of their endpoint under /api/tracking/rankings/. */
export const RANKING_KINDS = ["utm-source", "utm-campaign", "pages", "sources", "entry-pages"] as const;
export type RankingKind = typeof RANKING_KINDS[number];

interface KindDef {
  ranking: RolledRanking;
  /** The key's field in the endpoint's items. */
  field: "utmSource" | "utmCampaign" | "page" | "source";
  /** Items carry their visits in the comparison days (previousVisits). */
  previous: boolean;
}

const KINDS: Record<RankingKind, KindDef> = {
  "utm-source": { ranking: "utm_source", field: "utmSource", previous: false },
  "utm-campaign": { ranking: "utm_campaign", field: "utmCampaign", previous: false },
  "pages": { ranking: "page", field: "page", previous: false },
  "sources": { ranking: "source", field: "source", previous: true },
  "entry-pages": { ranking: "entry_page", field: "page", previous: true },
};

/** An item of a ranking: its key under the kind's field, its visits and, for some kinds, previousVisits. */
export type RankingRow = Record<string, string | number>;

/**
 * One page of a whole ranking of the period (`byPath`: pages by path alone), items shaped as the ranking's
 * top 10 are, and how many items match `page.search` in all.
 */
export async function fullRanking(
  db: Db,
  kind: RankingKind,
  range: DayRange,
  tz: string,
  now: Date,
  page: RankPage,
  byPath = false,
  f?: Filters,
): Promise<{ items: RankingRow[]; total: number }> {
  const def = KINDS[kind];
  const ranking = kind === "pages" && byPath ? "page_path" : def.ranking;
  const previous = def.previous ? comparisonOf(range, tz, now) : undefined;
  const { items, total } = noFilters(f)
    ? await rankingPage(db, ranking, range, tz, page, previous)
    : await filteredPage(db, ranking, range, tz, page, previous, f!);
  return {
    items: items.map((r) =>
      def.previous
        ? { [def.field]: r.key, visits: r.visits, previousVisits: r.previousVisits ?? 0 }
        : { [def.field]: r.key, visits: r.visits }
    ),
    total,
  };
}

/**
 * A page of a ranking under filters: the filtered ranking (from the raw rows, as every filtered report) in
 * full, narrowed to the keys containing the search (any case) and paged here.
 */
async function filteredPage(
  db: Db,
  ranking: RolledRanking,
  range: DayRange,
  tz: string,
  page: RankPage,
  previous: DayRange | undefined,
  f: Filters,
): Promise<{ items: (RankItem & { previousVisits?: number })[]; total: number }> {
  const all: (RankItem & { previousVisits?: number })[] = previous
    ? await rankingWithPreviousUnderFilters(db, ranking, range, previous, tz, EXPORT_MAX_ROWS, f)
    : await rankingUnderFilters(db, ranking, range, tz, EXPORT_MAX_ROWS, f);
  const needle = page.search?.toLowerCase();
  const matching = needle ? all.filter((r) => r.key.toLowerCase().includes(needle)) : all;
  return { items: matching.slice(page.offset, page.offset + page.limit), total: matching.length };
}

/** Most rows one export holds (a ranking of every page of a busy year stays a file a spreadsheet opens). */
export const EXPORT_MAX_ROWS = 100_000;

/** What a panel's rows are read with. */
export interface PanelContext {
  db: Db;
  range: DayRange;
  tz: string;
  now: Date;
  /** Pages grouped by path alone (the pages ranking's "por caminho"). */
  byPath: boolean;
  /** The dashboard's filters (src/shared/filters.ts): the file holds the filtered view. */
  filters?: Filters;
}

type Column<T> = [title: string, value: (row: T) => Cell];

interface Panel<T> {
  /** The file name's first word. */
  file: string;
  columns: Column<T>[];
  rows: (ctx: PanelContext) => Promise<T[]>;
}

// Counts are written as plain integers (text cells: no decimal mark); rates as numbers (the layout's mark).
const int = (n: number): Cell => String(n);

function rankingPanel(
  kind: RankingKind,
  file: string,
  keyTitle: string,
  unit: string = METRICS.visits.name,
): Panel<RankingRow> {
  const def = KINDS[kind];
  const columns: Column<RankingRow>[] = [
    ["Posição", (r) => int(r.rank as number)],
    [keyTitle, (r) => kind === "sources" ? sourceLabel(String(r[def.field])) : String(r[def.field])],
    [unit, (r) => int(r.visits as number)],
  ];
  if (def.previous) columns.push([`${unit} no período anterior`, (r) => int(r.previousVisits as number)]);
  return {
    file,
    columns,
    rows: async ({ db, range, tz, now, byPath, filters }) => {
      const { items } = await fullRanking(
        db,
        kind,
        range,
        tz,
        now,
        { limit: EXPORT_MAX_ROWS, offset: 0 },
        byPath,
        filters,
      );
      return items.map((item, i) => ({ ...item, rank: i + 1 }));
    },
  };
}

type SummaryRow = { name: string; current: number; previous: number; rate: boolean };
type ChannelExport = Awaited<ReturnType<typeof channelReport>>["current"][number] & {
  previousVisits: number;
  previousLeads: number;
};
type DailyRow = ReturnType<typeof mergeDaily>[number];
type SourceRow = Awaited<ReturnType<typeof conversionByUtmSource>>[number];
type DetailRow = UtmDetailRow;

/** Creatives (utm_content) or keywords (utm_term): page views, plan clicks, leads and rate per value. */
function utmDetailPanel(
  column: "utm_content" | "utm_term",
  file: string,
  keyTitle: string,
): Panel<DetailRow> {
  return {
    file,
    columns: [
      [keyTitle, (r) => r.key],
      [METRICS.visits.name, (r) => int(r.visits)],
      [METRICS.planClicks.name, (r) => int(r.clicks)],
      [METRICS.leads.name, (r) => int(r.leads)],
      [`${METRICS.conversionRate.name} (%)`, (r) => conversionRate(r.leads, r.clicks)],
    ],
    rows: ({ db, range, tz, filters }) => utmDetailRows(db, column, range, tz, EXPORT_MAX_ROWS, filters),
  };
}

const PANELS = {
  "sources": rankingPanel("sources", "origens", "Origem"),
  "utm-source": rankingPanel("utm-source", "origens-utm", "Origem (utm_source)"),
  "utm-campaign": rankingPanel("utm-campaign", "campanhas-utm", "Campanha (utm_campaign)"),
  "pages": rankingPanel("pages", "paginas", "Página"),
  "entry-pages": rankingPanel("entry-pages", "paginas-de-entrada", "Página de entrada", "Entradas"),
  "utm-content": utmDetailPanel("utm_content", "criativos-utm", "Criativo (utm_content)"),
  "utm-term": utmDetailPanel("utm_term", "palavras-chave-utm", "Palavra-chave (utm_term)"),
  "conversion-by-utm-source": {
    file: "conversao-por-origem-utm",
    columns: [
      ["Origem (utm_source)", (r) => r.utmSource ?? WORDS.noUtmSource],
      [METRICS.planClicks.name, (r) => int(r.clicks)],
      [METRICS.leads.name, (r) => int(r.conversions)],
      [`${METRICS.conversionRate.name} (%)`, (r) => r.rate],
    ],
    rows: ({ db, range, tz, filters }) => conversionByUtmSource(db, range, tz, filters),
  } satisfies Panel<SourceRow>,
  "channels": {
    file: "canais",
    columns: [
      ["Canal", (r) => channelLabel(r.channel)],
      [METRICS.visits.name, (r) => int(r.visits)],
      [METRICS.planClicks.name, (r) => int(r.clicks)],
      [METRICS.leads.name, (r) => int(r.leads)],
      [`${METRICS.conversionRate.name} (%)`, (r) => r.conversionRate],
      [`${METRICS.visits.name} no período anterior`, (r) => int(r.previousVisits)],
      [`${METRICS.leads.name} no período anterior`, (r) => int(r.previousLeads)],
    ],
    rows: async ({ db, range, tz, now, filters }) => {
      const { current, previous } = await channelReport(db, range, tz, now, filters);
      const before = new Map(previous.map((p) => [p.channel, p]));
      return current.map((r) => ({
        ...r,
        previousVisits: before.get(r.channel)?.visits ?? 0,
        previousLeads: before.get(r.channel)?.leads ?? 0,
      }));
    },
  } satisfies Panel<ChannelExport>,
  "summary": {
    file: "indicadores",
    columns: [
      ["Indicador", (r) => r.name],
      ["Período", (r) => r.rate ? r.current : int(r.current)],
      ["Período anterior", (r) => r.rate ? r.previous : int(r.previous)],
    ],
    rows: async ({ db, range, tz, now, filters }) => {
      const { current, previous } = await periodSummary(db, range, tz, now, filters);
      const row = (id: keyof typeof METRICS, key: keyof typeof current, rate = false): SummaryRow => ({
        name: rate ? `${METRICS[id].name} (%)` : METRICS[id].name,
        current: current[key] as number,
        previous: previous[key] as number,
        rate,
      });
      return [
        row("uniqueVisitors", "uniqueVisitors"),
        row("visits", "visits"),
        row("planClicks", "clicks"),
        row("conversions", "conversions"),
        row("leads", "leads"),
        row("conversionRate", "conversionRate", true),
      ];
    },
  } satisfies Panel<SummaryRow>,
  "daily": {
    file: "evolucao-diaria",
    columns: [
      // dd/MM/yyyy, as the leads CSV writes its dates.
      ["Data", (r) => r.date.split("-").reverse().join("/")],
      [METRICS.leads.name, (r) => int(r.leads)],
      [METRICS.planClicks.name, (r) => int(r.clicks)],
      [METRICS.uniqueVisitors.name, (r) => int(r.visits)],
      [`${METRICS.conversionRate.name} (%)`, (r) => r.conversionRate],
    ],
    rows: async ({ db, range, tz, now, filters }) => {
      const [leads, clicks, visits] = await Promise.all([
        leadSeries(db, range, tz, filters),
        clickSeries(db, range, tz, filters),
        uniqueVisitSeries(db, range, tz, filters),
      ]);
      // Every day of the period up to today, as the chart draws it.
      return chartDays(mergeDaily(leads, clicks, visits), range.start, range.end, todayIn(tz, now));
    },
  } satisfies Panel<DailyRow>,
} satisfies Record<PanelExport, unknown>;

/** A panel's rows of the period as a CSV file in `layout`: its name and its text (BOM, header, rows). */
export async function panelCsv(
  panel: PanelExport,
  ctx: PanelContext,
  layout: CsvLayout = "excel-br",
): Promise<{ name: string; text: string }> {
  const def = PANELS[panel] as Panel<unknown>;
  const rows = await def.rows(ctx);
  let text = (layout === "excel-br" ? "\uFEFF" : "") + csvRow(def.columns.map(([title]) => title), layout);
  for (const row of rows) text += csvRow(def.columns.map(([, value]) => value(row)), layout);
  return { name: `${def.file}_${ctx.range.start}_${ctx.range.end}.csv`, text };
}
