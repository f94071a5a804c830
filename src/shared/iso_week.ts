// ISO 8601 weeks ("2026-W47": Monday to Sunday, week 1 holds the year's first Thursday), for the weekly
// report: which week a day is in, and the days of a week named by the administrator.
import { addDays, isDay } from "./dashboard_math.ts";

/** "2026-W47": four digits, "-W", two digits. */
export const ISO_WEEK_PATTERN = /^(\d{4})-W(\d{2})$/;

/** ISO weekday of a local day (yyyy-MM-dd): 1 Monday … 7 Sunday. */
export function isoWeekday(day: string): number {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The Monday of the week a day is in. */
export function mondayOf(day: string): string {
  return addDays(day, 1 - isoWeekday(day));
}

/** The ISO week a day is in ("2026-W47"). */
export function isoWeekOf(day: string): string {
  // The week belongs to the year of its Thursday.
  const thursday = addDays(mondayOf(day), 3);
  const year = thursday.slice(0, 4);
  const week1Monday = mondayOf(`${year}-01-04`);
  const week = Math.round(
    (Date.parse(`${mondayOf(day)}T00:00:00Z`) - Date.parse(`${week1Monday}T00:00:00Z`)) /
      (7 * 86_400_000),
  ) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The days of an ISO week (Monday to Sunday), or null when the text is not a week of its year. */
export function isoWeekRange(week: string): { start: string; end: string } | null {
  const m = ISO_WEEK_PATTERN.exec(week);
  if (!m) return null;
  const n = Number(m[2]);
  // January 4th is always in week 1.
  const week1 = mondayOf(`${m[1]}-01-04`);
  if (!isDay(week1) || n < 1 || n > 53) return null;
  const start = addDays(week1, (n - 1) * 7);
  // Week 53 exists only in years that have it: its Monday would otherwise be in next year's week 1.
  if (isoWeekOf(start) !== week) return null;
  return { start, end: addDays(start, 6) };
}

/** The week before ("2026-W01" → "2025-W52" or "2025-W53"). */
export function previousIsoWeek(week: string): string {
  const range = isoWeekRange(week);
  if (!range) throw new RangeError(`not an ISO week: ${week}`);
  return isoWeekOf(addDays(range.start, -7));
}
