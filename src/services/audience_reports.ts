// The audience panels (docs/AUDIENCE.md): "Dispositivos", "Navegadores", "Sistemas", "Países" and "Estados"
// (page views, plan clicks, leads and leads ÷ clicks per value, with the days compared with), and "Leads por
// estado" (leads per state of their WhatsApp number).
import type { Db } from "../db/client.ts";
import type { DayRange } from "../db/dashboard_queries.ts";
import { audienceCounts, type LeadStateCount, leadStateCounts } from "../db/audience.ts";
import { type AudienceDimension, audienceValueLabel } from "../shared/audience.ts";
import { BR_STATES } from "../shared/br_states.ts";
import { storedWhatsappState } from "../db/leads.ts";
import type { Filters } from "../shared/filters.ts";
import { conversionRate } from "../shared/metrics.ts";
import { comparisonOf } from "./dashboard_reports.ts";

export interface AudienceRow {
  /** The stored value ('' for events without one: "Não identificado"), the filter's value. */
  key: string;
  /** Its name in the dashboard (device classes and countries in Portuguese). */
  label: string;
  visits: number;
  clicks: number;
  leads: number;
  /** leads / clicks × 100, as the channel report's. */
  leadRate: number;
  previousVisits: number;
  previousClicks: number;
  previousLeads: number;
  previousLeadRate: number;
}

/** A dimension's rows in the period, with their figures in the days it is compared with at `now`. */
export async function audienceReport(
  db: Db,
  dimension: AudienceDimension,
  range: DayRange,
  tz: string,
  now: Date,
  f?: Filters,
): Promise<{ rows: AudienceRow[]; comparison: DayRange }> {
  const { start, end } = comparisonOf(range, tz, now);
  const counts = await audienceCounts(db, dimension, range, { start, end }, tz, f);
  return {
    rows: counts.map((c) => ({
      ...c,
      label: audienceValueLabel(dimension, c.key),
      leadRate: conversionRate(c.leads, c.clicks),
      previousLeadRate: conversionRate(c.previousLeads, c.previousClicks),
    })),
    comparison: { start, end },
  };
}

export interface StateLeads {
  /** Two-letter code, '' for leads whose number is not Brazilian or not readable. */
  state: string;
  name: string;
  leads: number;
}

/** Leads per state, most first, the leads not from Brazil (or unreadable) last. */
function countStates(counts: LeadStateCount[]): StateLeads[] {
  const perState = new Map<string, number>();
  for (const c of counts) {
    const state = c.state ?? storedWhatsappState(c.whatsapp, c.page);
    perState.set(state, (perState.get(state) ?? 0) + c.leads);
  }
  return [...perState].map(([state, leads]) => ({
    state,
    name: state ? BR_STATES[state] : "Fora do Brasil ou não identificado",
    leads,
  })).sort((a, b) =>
    b.leads - a.leads || (a.state === "" ? 1 : b.state === "" ? -1 : a.state < b.state ? -1 : 1)
  );
}

/**
 * Leads per Brazilian state of their WhatsApp number (its DDD) in the period, most first; leads whose number
 * is foreign or unreadable are one row with state ''. For the weekly report and the "Leads por estado" panel.
 */
export async function leadsByState(
  db: Db,
  range: DayRange,
  tz: string,
  filters?: Filters,
): Promise<StateLeads[]> {
  return countStates(await leadStateCounts(db, range, null, tz, filters));
}

/** The weekly e-mail's "Leads por estado" (services/weekly_report.ts): each state by its name. */
export function weeklyLeadsByState(db: Db, tz: string) {
  return async (range: DayRange) =>
    (await leadsByState(db, range, tz)).map((s) => ({ state: s.name, leads: s.leads }));
}

/** "Leads por estado": the period's and the comparison days' leads per state. */
export async function leadStateReport(db: Db, range: DayRange, tz: string, now: Date, f?: Filters) {
  const { start, end } = comparisonOf(range, tz, now);
  const counts = await leadStateCounts(db, range, { start, end }, tz, f);
  const current = countStates(counts.filter((c) => c.current));
  const previous = countStates(counts.filter((c) => !c.current));
  const before = new Map(previous.map((p) => [p.state, p.leads]));
  return {
    rows: current.map((r) => ({ ...r, previousLeads: before.get(r.state) ?? 0 })),
    comparison: { start, end },
  };
}
