// The raw analytics event tables (migrations/00001 and later) and their columns, in one list: the batch
// writer's JSON packing, its recordset and each table's insert column list are generated from it, so a new
// column is added here once instead of in three places that must agree letter by letter.

/**
 * Raw event tables: page views, clicks (plan buttons and WhatsApp), reported lead conversions and engagement beacons (visible
 * time on a page, migrations/00018).
 */
export const EVENT_TABLES = ["visits", "clicks", "conversions", "engagements"] as const;
export type EventTable = typeof EVENT_TABLES[number];

export interface TrackedEvent {
  occurredAt: Date;
  visitorKey: string;
  sessionId: string;
  source: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  /** The session's touch (services/attribution.ts): visits and clicks; absent on conversions. */
  trafficSource?: string | null;
  channel?: string | null;
  /** Page views and clicks: the user agent's and address's categories (migrations/00020, docs/AUDIENCE.md). */
  audience?: Audience;
  /** Clicks only: a plan button (the plan clicks, the default) or a WhatsApp button or link (00017). */
  clickKind?: ClickKind;
  /** Engagement beacons only: the page's visible time (ms) since its previous beacon. */
  engagedMs?: number;
}

/** Who sent an event, as small categories: never the user agent or the address themselves. */
export interface Audience {
  device: string | null;
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
  osVersion: string | null;
  country: string | null;
  region: string | null;
}

/** What a stored click was on (migrations/00017). */
export type ClickKind = "plan" | "whatsapp";

export interface TrackedVisit extends TrackedEvent {
  utmTerm: string | null;
  utmContent: string | null;
  /** The address's keys for the next months (services/visitor_key.ts VisitorKeys.linkKeys). */
  linkKeys?: string[];
  trafficMedium?: string | null;
  /** The referring site's host (never this site's). */
  referrerHost?: string | null;
  /** Names of the click ids on the landing URL. */
  clickIds?: string[];
  /** The page started the session's touch (its landing page). */
  entry?: boolean;
}

/** Either kind, with the visit-only fields optional. */
export type AnyTrackedEvent = TrackedEvent & Partial<TrackedVisit>;

/**
 * How a column travels in the batch's JSON: `text` and `text[]` as they are, `epoch` (timestamptz) as epoch
 * milliseconds, `flag` (boolean not null default false) only when true.
 */
type Packing = "text" | "text[]" | "epoch" | "flag" | "int";

export interface EventColumn {
  name: string;
  /** Its key in the batch's JSON rows: one or two letters keep the text about 40% smaller. */
  key: string;
  packing: Packing;
  /** The tables written with it (the others leave the column out: null or the table's default). */
  tables: readonly EventTable[];
  /** The stored value; null stores NULL (or false for a flag). */
  value: (e: AnyTrackedEvent) => string | string[] | Date | boolean | number | null;
}

const ALL = EVENT_TABLES;
// Engagement rows keep only the time, session, page and visible time: no visitor key, no UTM values.
const ACTIONS: readonly EventTable[] = ["visits", "clicks", "conversions"];
const ENGAGEMENTS: readonly EventTable[] = ["engagements"];
const TOUCHED: readonly EventTable[] = ["visits", "clicks"];
const VISITS: readonly EventTable[] = ["visits"];
const CLICKS: readonly EventTable[] = ["clicks"];

export const EVENT_COLUMNS: readonly EventColumn[] = [
  { name: "occurred_at", key: "o", packing: "epoch", tables: ALL, value: (e) => e.occurredAt },
  { name: "visitor_key", key: "v", packing: "text", tables: ACTIONS, value: (e) => e.visitorKey },
  { name: "session_id", key: "s", packing: "text", tables: ALL, value: (e) => e.sessionId },
  { name: "source", key: "p", packing: "text", tables: ALL, value: (e) => e.source },
  { name: "utm_source", key: "us", packing: "text", tables: ACTIONS, value: (e) => e.utmSource },
  { name: "utm_campaign", key: "uc", packing: "text", tables: ACTIONS, value: (e) => e.utmCampaign },
  { name: "utm_medium", key: "um", packing: "text", tables: ACTIONS, value: (e) => e.utmMedium },
  {
    name: "traffic_source",
    key: "ts",
    packing: "text",
    tables: TOUCHED,
    value: (e) => e.trafficSource ?? null,
  },
  { name: "channel", key: "ch", packing: "text", tables: TOUCHED, value: (e) => e.channel ?? null },
  { name: "utm_term", key: "ut", packing: "text", tables: VISITS, value: (e) => e.utmTerm ?? null },
  { name: "utm_content", key: "un", packing: "text", tables: VISITS, value: (e) => e.utmContent ?? null },
  { name: "link_keys", key: "l", packing: "text[]", tables: VISITS, value: (e) => e.linkKeys ?? null },
  { name: "referrer_host", key: "rh", packing: "text", tables: VISITS, value: (e) => e.referrerHost ?? null },
  {
    name: "click_ids",
    key: "ci",
    packing: "text[]",
    tables: VISITS,
    value: (e) => (e.clickIds?.length ? e.clickIds : null),
  },
  {
    name: "traffic_medium",
    key: "tm",
    packing: "text",
    tables: VISITS,
    value: (e) => e.trafficMedium ?? null,
  },
  { name: "entry", key: "en", packing: "flag", tables: VISITS, value: (e) => e.entry === true },
  { name: "device", key: "dv", packing: "text", tables: TOUCHED, value: (e) => e.audience?.device ?? null },
  { name: "browser", key: "br", packing: "text", tables: TOUCHED, value: (e) => e.audience?.browser ?? null },
  {
    name: "browser_version",
    key: "bv",
    packing: "text",
    tables: TOUCHED,
    value: (e) => e.audience?.browserVersion ?? null,
  },
  { name: "os", key: "os", packing: "text", tables: TOUCHED, value: (e) => e.audience?.os ?? null },
  {
    name: "os_version",
    key: "ov",
    packing: "text",
    tables: TOUCHED,
    value: (e) => e.audience?.osVersion ?? null,
  },
  { name: "country", key: "co", packing: "text", tables: TOUCHED, value: (e) => e.audience?.country ?? null },
  { name: "region", key: "rg", packing: "text", tables: TOUCHED, value: (e) => e.audience?.region ?? null },
  { name: "kind", key: "kd", packing: "text", tables: CLICKS, value: (e) => e.clickKind ?? "plan" },
  { name: "engaged_ms", key: "em", packing: "int", tables: ENGAGEMENTS, value: (e) => e.engagedMs ?? null },
];

/** The columns `table` is written with. */
export function columnsOf(table: EventTable): EventColumn[] {
  return EVENT_COLUMNS.filter((c) => c.tables.includes(table));
}

/** `table`'s column names, comma-separated, for an insert. */
export function columnList(table: EventTable): string {
  return columnsOf(table).map((c) => c.name).join(", ");
}

/** The JSON row of one event: absent, null and false values are left out (the recordset reads them as null). */
export function packEvent(e: AnyTrackedEvent, into: Record<string, unknown>): Record<string, unknown> {
  for (const c of EVENT_COLUMNS) {
    const v = c.value(e);
    if (v === null || v === false) continue;
    into[c.key] = c.packing === "epoch" ? (v as Date).getTime() : v;
  }
  return into;
}

const RECORD_TYPE: Record<Packing, string> = {
  text: "text",
  "text[]": "text[]",
  epoch: "bigint",
  flag: "boolean",
  int: "integer",
};

/** The recordset's column definitions for the packed keys, e.g. `o bigint, v text, …`. */
export const PACKED_RECORD = EVENT_COLUMNS.map((c) => `${c.key} ${RECORD_TYPE[c.packing]}`).join(", ");

/** Select expressions turning the packed keys of recordset `r` back into the columns, e.g. `r.v as visitor_key`. */
export const UNPACKED_COLUMNS = EVENT_COLUMNS.map((c) => {
  const key = `r.${c.key}`;
  const read = c.packing === "epoch"
    ? `timestamptz 'epoch' + ${key} * interval '1 millisecond'`
    : c.packing === "flag"
    ? `coalesce(${key}, false)`
    : key;
  return `${read} as ${c.name}`;
}).join(", ");
