import type { Db } from "../db/client.ts";
import {
  allTimeClicksAndConversions,
  conversionBySource,
  countLeads,
  dailyClicks,
  type DailyCount,
  dailyLeads,
  dailyUniqueVisitors,
  type DayRange,
  type EventTotals,
  eventTotals,
  type LeadFilter,
  type LeadRow,
  listLeads,
  topPages,
  topUtmCampaigns,
  topUtmSources,
  type VisitorTotals,
  visitorTotals,
} from "../db/analytics.ts";
import { addDays, localStamp, previousPeriod, todayIn } from "../shared/analytics.ts";
import { conversionRate } from "../shared/metrics.ts";
import { channelLabel } from "../shared/channels.ts";

/** How many items each ranking lists. */
export const RANKING_SIZE = 10;

/** The last `days` local days, today included. */
export function lastDays(days: number, tz: string, now: Date): DayRange {
  const end = todayIn(tz, now);
  return { start: addDays(end, -(days - 1)), end };
}

/** Daily leads of a range. */
export function leadSeries(db: Db, range: DayRange, tz: string): Promise<DailyCount[]> {
  return dailyLeads(db, range, tz);
}

/** Daily plan-button clicks of a range. */
export function clickSeries(db: Db, range: DayRange, tz: string): Promise<DailyCount[]> {
  return dailyClicks(db, range, tz);
}

/** Daily unique visitors of a range. */
export function uniqueVisitSeries(db: Db, range: DayRange, tz: string): Promise<DailyCount[]> {
  return dailyUniqueVisitors(db, range, tz);
}

export interface TrackingStats {
  clicks: number;
  conversions: number;
  /** conversions / clicks × 100, one decimal, 0 without clicks. */
  rate: number;
}

/** Clicks, conversions and their rate for a range, or for all time when no range is given. */
export async function trackingStats(db: Db, range: DayRange | undefined, tz: string): Promise<TrackingStats> {
  const { clicks, conversions } = range
    ? await eventTotals(db, range, tz)
    : await allTimeClicksAndConversions(db, tz);
  return { clicks, conversions, rate: conversionRate(conversions, clicks) };
}

export interface PeriodSummary extends EventTotals, VisitorTotals {
  start: string;
  end: string;
  /** conversions / clicks × 100. */
  conversionRate: number;
  /** leads / clicks × 100 (the chart's rate, over the whole period): the same, a conversion being a lead. */
  leadRate: number;
}

async function summarize(db: Db, range: DayRange, tz: string): Promise<PeriodSummary> {
  const [totals, visitors] = await Promise.all([eventTotals(db, range, tz), visitorTotals(db, range, tz)]);
  return {
    ...range,
    ...totals,
    ...visitors,
    conversionRate: conversionRate(totals.conversions, totals.clicks),
    leadRate: conversionRate(totals.leads, totals.clicks),
  };
}

/** Headline figures of a period and of the period of the same length just before it. */
export async function periodSummary(
  db: Db,
  range: DayRange,
  tz: string,
): Promise<{ current: PeriodSummary; previous: PeriodSummary }> {
  const [current, previous] = await Promise.all([
    summarize(db, range, tz),
    summarize(db, previousPeriod(range.start, range.end), tz),
  ]);
  return { current, previous };
}

/** Top UTM sources by visits. */
export async function utmSourceRanking(db: Db, range: DayRange, tz: string) {
  return (await topUtmSources(db, range, tz, RANKING_SIZE)).map((r) => ({
    utmSource: r.key,
    visits: r.visits,
  }));
}

/** Top UTM campaigns by visits. */
export async function utmCampaignRanking(db: Db, range: DayRange, tz: string) {
  return (await topUtmCampaigns(db, range, tz, RANKING_SIZE)).map((r) => ({
    utmCampaign: r.key,
    visits: r.visits,
  }));
}

/** Most visited pages (path plus query). */
export async function pageRanking(db: Db, range: DayRange, tz: string) {
  return (await topPages(db, range, tz, RANKING_SIZE)).map((r) => ({ page: r.key, visits: r.visits }));
}

/** Clicks, conversions and rate per UTM source, most clicked first. */
export async function conversionByUtmSource(db: Db, range: DayRange, tz: string) {
  return (await conversionBySource(db, range, tz)).map((r) => ({
    ...r,
    rate: conversionRate(r.conversions, r.clicks),
  }));
}

/** Leads matching a filter, newest first, and how many match in all. */
export async function findLeads(
  db: Db,
  filter: LeadFilter,
  tz: string,
): Promise<{ leads: LeadRow[]; total: number }> {
  const [leads, total] = await Promise.all([
    listLeads(db, filter, tz),
    filter.limit === undefined ? Promise.resolve(-1) : countLeads(db, filter, tz),
  ]);
  return { leads, total: total < 0 ? leads.length : total };
}

const CSV_COLUMNS: [string, (l: LeadRow, tz: string) => string][] = [
  ["Data", (l, tz) => localStamp(l.submittedAt, tz)],
  ["Nome", (l) => l.name],
  ["E-mail", (l) => l.email],
  ["WhatsApp", (l) => l.whatsapp],
  ["Plano", (l) => l.planLabel || l.plan],
  ["Origem (utm_source)", (l) => l.utmSource ?? ""],
  ["Campanha (utm_campaign)", (l) => l.utmCampaign ?? ""],
  ["Mídia (utm_medium)", (l) => l.utmMedium ?? ""],
  ...touchColumns("Primeiro toque", "first"),
  ...touchColumns("Último toque", "last"),
];

/** A lead's first or last touch as CSV columns: source, medium, campaign, channel, landing page. */
function touchColumns(title: string, t: "first" | "last"): [string, (l: LeadRow) => string][] {
  return [
    [`${title}: origem`, (l) => l[`${t}Source`] ?? ""],
    [`${title}: mídia`, (l) => l[`${t}Medium`] ?? ""],
    [`${title}: campanha`, (l) => l[`${t}Campaign`] ?? ""],
    [`${title}: canal`, (l) => {
      const channel = l[`${t}Channel`];
      return channel ? channelLabel(channel) : "";
    }],
    [`${title}: página de entrada`, (l) => l[`${t}LandingPage`] ?? ""],
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
 * One CSV cell: always quoted (RFC 4180), so no separator inside it (a comma, or the semicolon Excel splits
 * on in pt-BR) can start a new cell; and a formula start neutralised with a leading apostrophe, except in a
 * phone number.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !isPhone(value) ? "'" + value : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Leads as CSV: UTF-8 with a BOM (Excel), CRLF line ends, a header row (RFC 4180). */
export function leadsCsv(leads: LeadRow[], timeZone: string): string {
  const lines = [CSV_COLUMNS.map(([title]) => csvCell(title)).join(",")];
  for (const lead of leads) lines.push(CSV_COLUMNS.map(([, get]) => csvCell(get(lead, timeZone))).join(","));
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}
