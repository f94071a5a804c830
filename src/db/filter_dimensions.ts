// What the roll-ups per filter value are keyed by (docs/ANALYTICS.md "Filters"): each rolled-up filter alone
// ("channel", value "paid_social"), and each pair of the session's touch filters together
// ("channel+utm_source", value "paid_social" U+001F "facebook"), so a view with one filter or with two of them
// reads a roll-up instead of every raw row of its period. The pair's value is one text: its two values joined
// by U+001F, which neither can hold (stored text and filter values refuse control characters:
// src/shared/schemas.ts, src/shared/filters.ts). A row with either value empty is in no pair, as a row with
// an empty value is under no single filter.
//
// The page is not paired: under a page filter a visit's time counts on that page alone, and the clicks and
// leads of a page filter are found through their sessions (db/session_keys.ts), so two filters with a page,
// three filters, the entry page and the audience read the raw rows.
import type { Queryable } from "./client.ts";
import { filterEntries, type FilterKey, type Filters } from "../shared/filters.ts";

/** The columns a roll-up compares, per filter key (the page view's for most roll-ups, the click's for clicks). */
export type FilterColumns = Partial<Record<FilterKey, string>>;

/** Joins the two values of a pair (a control character: no stored value and no filter value holds one). */
const PAIR_SEPARATOR = "\u001f";

/** The filters whose pairs are rolled up: the session's touch (a visit carries all of them on each page view). */
const PAIRED: ReadonlySet<FilterKey> = new Set<FilterKey>([
  "channel",
  "source",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_content",
  "utm_term",
]);

/** One dimension of a roll-up: its name and the filter keys it combines (one or two, in `columns` order). */
interface Dimension {
  name: string;
  keys: FilterKey[];
}

/** Every dimension a roll-up over `columns` keeps: each key alone, then each pair of paired keys. */
function dimensions(columns: FilterColumns): Dimension[] {
  const keys = Object.keys(columns) as FilterKey[];
  const out: Dimension[] = keys.map((k) => ({ name: k, keys: [k] }));
  const paired = keys.filter((k) => PAIRED.has(k));
  paired.forEach((a, i) => {
    for (const b of paired.slice(i + 1)) out.push({ name: `${a}+${b}`, keys: [a, b] });
  });
  return out;
}

/** A dimension's value on a row (`alias` prefixes each column, e.g. "v."): null where the row has none. */
function valueSql(columns: FilterColumns, keys: FilterKey[], alias: string): string {
  if (keys.length === 1) return `${alias}${columns[keys[0]]}`;
  const separator = ` || chr(${PAIR_SEPARATOR.charCodeAt(0)}) || `;
  return keys.map((k) => `nullif(${alias}${columns[k]}, '')`).join(separator);
}

/** The `values` list of a roll-up's lateral join: `('channel', channel), ('channel+utm_source', …), …`. */
export function dimensionValues(columns: FilterColumns): string {
  return dimensions(columns).map((d) => `('${d.name}', ${valueSql(columns, d.keys, "")})`).join(", ");
}

/** The roll-up dimension a view's filters select, its value, and that value's SQL on a raw row. */
export interface RolledDimension {
  name: string;
  value: string;
  /** The dimension's value on a row of the raw table (`alias` as in "v."), to compare with `value`. */
  sql(alias?: string): string;
}

/** The dimension that answers `f` (one rolled filter, or two paired ones); null when none does. */
export function rolledDimension(columns: FilterColumns, f: Filters | undefined): RolledDimension | null {
  const set = new Map(filterEntries(f));
  if (set.size === 0 || set.size > 2) return null;
  const d = dimensions(columns).find((d) => d.keys.length === set.size && d.keys.every((k) => set.has(k)));
  if (!d) return null;
  return {
    name: d.name,
    value: d.keys.map((k) => set.get(k)!).join(PAIR_SEPARATOR),
    sql: (alias = "") => valueSql(columns, d.keys, alias),
  };
}

/** The roll-ups per filter value and pair (migrations 00022, 00025–00028). */
const FILTER_ROLLUPS = [
  "daily_filter_engagement",
  "daily_filter_visit_ranks",
  "daily_filter_page_engagement",
  "daily_filter_visitors",
  "daily_filter_actions",
] as const;

/**
 * Drops the filter roll-ups' rows of the days before `day`, whose raw rows retention purged: a filtered view
 * counts nothing for such a day (the raw path has no rows to filter, so every read stops at the purge
 * watermark), and these rows, several times the raw page views' size, would only grow.
 */
export async function forgetFilterRollupsBefore(db: Queryable, day: string): Promise<void> {
  for (const table of FILTER_ROLLUPS) await db.query(`delete from ${table} where day < $1::date`, [day]);
}
