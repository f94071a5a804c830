// The dashboard's lead list: one row per stored lead with its first- and last-touch origin, filtered by period,
// plan, source and a folded text search (name, e-mail, WhatsApp digits), newest first. The aggregates beside it
// are in dashboard_queries.ts.
import type { Queryable } from "./client.ts";
import type { LeadFilter } from "../shared/lead_filter.ts";
import { BOUNDS, leadCount } from "./dashboard_queries.ts";
import { type FilterBounds, filterSql, leadRows, RANGE_BOUNDS, readsSessions } from "./filtered.ts";
import { noFilters } from "../shared/filters.ts";

export interface LeadRow {
  id: number;
  name: string;
  email: string;
  whatsapp: string;
  plan: string;
  planLabel: string;
  submittedAt: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  /** The converting session's UTM content (the creative) and term (the keyword), from its page views (00016). */
  utmContent: string | null;
  utmTerm: string | null;
  /** The visitor's first session in the attribution window (null on leads stored before migration 00011). */
  firstSource: string | null;
  firstMedium: string | null;
  firstCampaign: string | null;
  firstChannel: string | null;
  firstLandingPage: string | null;
  /** The session that converted. */
  lastSource: string | null;
  lastMedium: string | null;
  lastCampaign: string | null;
  lastChannel: string | null;
  lastLandingPage: string | null;
  /** The address of the page the form was sent from (its language reads the WhatsApp number). */
  page: string | null;
  /** The state of the WhatsApp number's DDD (shared/br_states.ts): added by services/dashboard_reports.ts findLeads. */
  state?: string | null;
}

export type { LeadFilter };

/** Case and accent folding, the same as leads.search_text's (migrations/00009). */
const FOLD = (expr: string) =>
  `translate(lower(${expr}), 'áàâãäåāăąçćčéèêëēėęěíìîïīįñńňóòôõöøōőúùûüūůűýÿžźż',
     'aaaaaaaaaccceeeeeeeeiiiiiinnnoooooooouuuuuuuyyzzz')`;

function leadWhere(filter: LeadFilter, tz: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  if (filter.range) {
    params.push(filter.range.start, filter.range.end, tz);
    parts.push(BOUNDS("submitted_at"));
  }
  if (filter.q) {
    const like = "%" + filter.q.replace(/[\\%_]/g, (m) => "\\" + m) + "%";
    params.push(like);
    const n = params.length;
    const digits = filter.q.replace(/\D/g, "");
    let phone = "";
    // Phone numbers are typed with punctuation; translate() strips the usual marks far faster than a regexp.
    if (digits.length >= 3) {
      params.push("%" + digits + "%");
      phone = ` or translate(whatsapp, ' ()+-./', '') like $${params.length}`;
    }
    parts.push(`(search_text like ${FOLD(`$${n}::text`)} or whatsapp ilike $${n}${phone})`);
  }
  if (filter.plan) {
    params.push(filter.plan);
    parts.push(`plan = $${params.length}`);
  }
  if (filter.utmSource) {
    // A substring, LIKE's wildcards and escape taken literally.
    params.push("%" + filter.utmSource.replace(/[\\%_]/g, (m) => "\\" + m) + "%");
    parts.push(`utm_source ilike $${params.length}`);
  }
  const sql = parts.length ? "where " + parts.join(" and ") : "where true";
  if (noFilters(filter.filters)) return { sql: parts.length ? sql : "", params };
  // The period's instants bound the page views a session filter reads (all of them without a period). The time
  // zone is a parameter only where a session filter uses it: one that nothing uses has no type, and is refused.
  const bounds = filter.range
    ? RANGE_BOUNDS
    : readsSessions(filter.filters, "leads")
    ? allTime(params, tz)
    : ALL_TIME;
  return { sql: sql + filterSql(filter.filters, "leads", params, bounds, "leads"), params };
}

/** Without a period: all of time (no time zone: a parameter that nothing uses has no type, and is refused). */
const ALL_TIME: FilterBounds = { lo: "'-infinity'::timestamptz", hi: "'infinity'::timestamptz", tz: "null" };
/** All of time, with the time zone pushed onto `params`. */
function allTime(params: unknown[], tz: string): FilterBounds {
  params.push(tz);
  return { ...ALL_TIME, tz: `$${params.length}::text` };
}

/** Leads, newest (or oldest) first, optionally filtered and paginated. */
export async function listLeads(db: Queryable, filter: LeadFilter, tz: string): Promise<LeadRow[]> {
  const { sql, params } = leadWhere(filter, tz);
  let page = "";
  if (filter.limit !== undefined) {
    params.push(filter.limit, filter.offset ?? 0);
    page = ` limit $${params.length - 1} offset $${params.length}`;
  }
  return await db.query<LeadRow>(
    `select id, name, email, whatsapp, plan, plan_label as "planLabel",
            to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "submittedAt",
            utm_source as "utmSource", utm_campaign as "utmCampaign", utm_medium as "utmMedium",
            utm_content as "utmContent", utm_term as "utmTerm",
            first_source as "firstSource", first_medium as "firstMedium", first_campaign as "firstCampaign",
            first_channel as "firstChannel", first_landing_page as "firstLandingPage",
            last_source as "lastSource", last_medium as "lastMedium", last_campaign as "lastCampaign",
            last_channel as "lastChannel", last_landing_page as "lastLandingPage", page
       from leads ${sql}
      order by ${filter.oldestFirst ? "submitted_at asc, id asc" : "submitted_at desc, id desc"}${page}`,
    params,
  );
}

/**
 * How many leads match a filter (pagination ignored). A period alone, the list's first page, is counted as
 * the headline counts it, from the leads' roll-up (db/lead_totals.ts): the same number without a month of rows.
 */
export async function countLeads(db: Queryable, filter: LeadFilter, tz: string): Promise<number> {
  if (!filter.q && !filter.plan && !filter.utmSource) {
    if (noFilters(filter.filters)) {
      if (filter.range) return await leadCount(db, filter.range, tz);
    } else {
      // Under filters alone, the rows the reports add up (from a roll-up under one filter of the session).
      const params: unknown[] = filter.range ? [filter.range.start, filter.range.end, tz] : [];
      const bounds = filter.range ? RANGE_BOUNDS : allTime(params, tz);
      const rows = await db.query<{ n: number }>(
        `select coalesce(sum(n), 0)::int as n from (${leadRows(filter.filters, params, bounds)}) r`,
        params,
      );
      return rows[0].n;
    }
  }
  const { sql, params } = leadWhere(filter, tz);
  const rows = await db.query<{ n: number }>(`select count(*)::int as n from leads ${sql}`, params);
  return rows[0].n;
}
