// What the lead list and its CSV export select: the route builds it from the query, the database answers it.
import type { DayRange } from "./dashboard_math.ts";
import type { Filters } from "./filters.ts";

export interface LeadFilter {
  range?: DayRange;
  /** Matches name or e-mail (any case, any accents), or WhatsApp (digits compared without punctuation). */
  q?: string;
  /** Only leads of this plan value (micro, pro, premium, enterprise, unknown). */
  plan?: string;
  /** Only leads whose UTM source contains this text, in any case ("goog" finds Google). */
  utmSource?: string;
  /** The dashboard's filters (shared/filters.ts), as every other report takes them. */
  filters?: Filters;
  /** Oldest first instead of newest first. */
  oldestFirst?: boolean;
  limit?: number;
  offset?: number;
}
