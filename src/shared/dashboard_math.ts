// Dashboard arithmetic shared by the server and the browser, so both round and divide the same way
// (each formula in words: docs/METRICS.md).

/** Whole local days, yyyy-MM-dd, both inclusive. */
export interface DayRange {
  start: string;
  end: string;
}

export interface DailyCount {
  date: string;
  count: number;
}

/** One point of the daily chart. */
export interface ChartPoint {
  date: string;
  leads: number;
  clicks: number;
  visits: number;
  /** leads / clicks × 100, one decimal; 0 when there were no clicks. */
  conversionRate: number;
}

/** Rounds to one decimal (averages and rates are shown with one). */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** part / whole × 100 to one decimal, 0 when `whole` is 0. */
export function ratePercent(part: number, whole: number): number {
  return whole > 0 ? round1((part / whole) * 100) : 0;
}

/** Merges the three daily series into chart points, one per date present in any of them, in date order. */
export function mergeDaily(leads: DailyCount[], clicks: DailyCount[], visits: DailyCount[]): ChartPoint[] {
  const byDate = new Map<string, ChartPoint>();
  const point = (date: string) => {
    let p = byDate.get(date);
    if (!p) byDate.set(date, p = { date, leads: 0, clicks: 0, visits: 0, conversionRate: 0 });
    return p;
  };
  for (const d of leads) point(d.date).leads += d.count;
  for (const d of clicks) point(d.date).clicks += d.count;
  for (const d of visits) point(d.date).visits += d.count;
  const points = [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
  for (const p of points) p.conversionRate = ratePercent(p.leads, p.clicks);
  return points;
}

/**
 * The chart's points: one for every day from `start` to `end` (both included), zeros on days without data,
 * so the x axis spaces days evenly.
 */
export function everyDay(points: ChartPoint[], start: string, end: string): ChartPoint[] {
  const byDate = new Map(points.map((p) => [p.date, p]));
  const out: ChartPoint[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) {
    out.push(byDate.get(day) ?? { date: day, leads: 0, clicks: 0, visits: 0, conversionRate: 0 });
  }
  return out;
}

/**
 * The chart's days: every day from `start` to the earlier of `end` and `today` (days not begun have no data
 * yet, not zero); none when there is no data at all. "Média por dia" divides by them: on 26/11 this month
 * has 26, not 30.
 */
export function chartDays(points: ChartPoint[], start: string, end: string, today: string): ChartPoint[] {
  if (!points.length) return points;
  return everyDay(points, start, end < today ? end : today);
}

/** Sum of a daily series. */
export function sumCounts(series: DailyCount[]): number {
  return series.reduce((total, d) => total + d.count, 0);
}

/** Average leads per day: the leads of the chart divided by the number of chart days (1 if none). */
export function averageLeadsPerDay(points: ChartPoint[]): number {
  const leads = points.reduce((total, p) => total + p.leads, 0);
  return round1(leads / Math.max(1, points.length));
}

/** Average unique visitors per day: divided by the number of days that have visit records (0 if none). */
export function averageVisitsPerDay(visits: DailyCount[]): number {
  const days = visits.filter((d) => d.count > 0).length;
  return days ? round1(sumCounts(visits) / days) : 0;
}

export type Performance = "excellent" | "good" | "poor";

/** Conversion-rate band: 10% or more excellent, 5% to under 10% good, under 5% needs improvement. */
export function performanceOf(rate: number): Performance {
  if (rate >= 10) return "excellent";
  if (rate >= 5) return "good";
  return "poor";
}

/** Change from `previous` to `current` in percent (one decimal); null when there is nothing to compare to. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return round1(((current - previous) / previous) * 100);
}

/**
 * A visit is linked to the same address's visits up to this many days later (docs/UNIQUE_VISITORS.md), so
 * unique visitors are exact over any range of up to EXACT_VISITOR_DAYS days; longer ones are an upper bound.
 */
export const LINK_WINDOW_DAYS = 61;
export const EXACT_VISITOR_DAYS = LINK_WINDOW_DAYS + 1;

/** The longest period the dashboard's API answers (two years, a leap day included). */
export const MAX_RANGE_DAYS = 732;

const DAY_MS = 86_400_000;

function toUtc(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y, m - 1, d);
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** True for a real calendar date written yyyy-MM-dd. */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return fromUtc(toUtc(value)) === value;
}

/** Days from `start` to `end`, both included. */
export function daysInclusive(start: string, end: string): number {
  return Math.round((toUtc(end) - toUtc(start)) / DAY_MS) + 1;
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  return fromUtc(toUtc(day) + n * DAY_MS);
}

/** The period of the same length that ends the day before `start`. */
export function previousPeriod(start: string, end: string): { start: string; end: string } {
  const length = daysInclusive(start, end);
  return { start: addDays(start, -length), end: addDays(start, -1) };
}

/** Today's date (yyyy-MM-dd) in a time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .format(now);
}

const stampFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant as "dd/MM/yyyy{sep}HH:mm" in a time zone (the dashboard's and the CSV's local times). */
export function localStamp(iso: string, timeZone: string, sep = " "): string {
  let format = stampFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    stampFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("day")}/${get("month")}/${get("year")}${sep}${get("hour")}:${get("minute")}`;
}

/** First and last day of the month containing `day`. */
export function monthOf(day: string): { start: string; end: string } {
  const [y, m] = day.split("-").map(Number);
  return { start: fromUtc(Date.UTC(y, m - 1, 1)), end: fromUtc(Date.UTC(y, m, 0)) };
}

/**
 * What a period is compared with: days (yyyy-MM-dd, both included) and, when the period is still under way,
 * the local time of day (HH:mm:ss) its last day is cut at, so both sides cover the same stretch.
 */
export interface ComparisonRange {
  start: string;
  end: string;
  /** Only the events before this local time of `end` count (null: the whole day). */
  until: string | null;
}

/**
 * The stretch a period is compared with (docs/ANALYTICS.md, "Comparisons"), evaluated on local day `today`
 * at local time `time` (HH:mm:ss):
 * - a period over (or not begun) is compared with the period of the same length just before it; whole
 *   calendar months ("Mês passado") with as many whole months before them (October with September);
 * - a period under way counts only its days so far, from `start` to today: a month to date (starting on the
 *   1st and ending within that month) is compared with the same days of the previous month (the whole
 *   previous month when it is shorter than the days so far), any other period with as many days just before
 *   it. When only today has begun ("Hoje", or this month on the 1st), the day compared with is cut at the same
 *   time: "Hoje" at 09:00 against yesterday until 09:00. Longer stretches compare whole days (today, partial,
 *   is one day of many).
 */
export function comparisonRange(
  range: { start: string; end: string },
  today: string,
  time: string,
): ComparisonRange {
  if (range.end < today || range.start > today) {
    const months = wholeMonths(range);
    if (months) {
      const start = monthOf(addDays(range.start, -1)).start;
      let first = start;
      for (let i = 1; i < months; i++) first = monthOf(addDays(first, -1)).start;
      return { start: first, end: addDays(range.start, -1), until: null };
    }
    return { ...previousPeriod(range.start, range.end), until: null };
  }
  const days = daysInclusive(range.start, today);
  const until = days === 1 ? time : null;
  const month = monthOf(range.start);
  if (range.start === month.start && range.end <= month.end) {
    const previous = monthOf(addDays(month.start, -1));
    const end = addDays(previous.start, days - 1);
    return end > previous.end ? { ...previous, until: null } : { start: previous.start, end, until };
  }
  return { ...previousPeriod(range.start, today), until };
}

/** How many calendar months a period covers when it is whole months (1st to a last day), else 0. */
function wholeMonths(range: { start: string; end: string }): number {
  if (monthOf(range.start).start !== range.start || monthOf(range.end).end !== range.end) return 0;
  const [y1, m1] = range.start.split("-").map(Number);
  const [y2, m2] = range.end.split("-").map(Number);
  return (y2 - y1) * 12 + (m2 - m1) + 1;
}

/** The local time of day (HH:mm:ss) of an instant in a time zone. */
export function timeIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(now);
}
