// The one seeder: realistic analytics data for the benchmarks, the dashboard's browser tests and their
// screenshots: visits, plan clicks, conversions and leads over the last
// `days` local days (ANALYTICS_TZ) ending now, with UTM, referrer, click-id and page mixes over the real
// public paths (source, medium and channel derived by the server's own rules, services/attribution.ts) and
// visitor keys shaped like src/services/visitor_key.ts (32 hex characters, a fresh set each local month, and
// each visit's link keys for the next months, so the roll-ups match visitors across months as in production).
// Everything happens in browser sessions, as production writes it (testing/invariants.ts lists the rules,
// src/db/invariants_test.ts checks them): one touch per session, whose first page view is its entry; a plan
// click after a page view; a lead after its plan's click, with the session id, its last touch (the session)
// and first touch (the visitor's earliest session start in the attribution window); a conversion only for a
// stored lead of its session, after it (a few reports are lost, so a few leads have none).
// PostgreSQL is written with COPY; PGlite with big array inserts. The roll-up job then runs, so the data
// is in the state a long-running server would have.
//   DATABASE_URL=postgres://… deno run -A testing/seed.ts [--visits 1000000] [--schema name]
// Without DATABASE_URL it seeds the PGlite database in DATA_DIR (default ./data). Rows are added to what
// the database already holds.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { type Db, openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { LANGS } from "../src/shared/languages.ts";
import { pagePath, PUBLIC_PAGES } from "../src/shared/routes.ts";
import { addDays, todayIn } from "../src/shared/dashboard_math.ts";
import { runRollups } from "../src/services/rollups.ts";
import { linkMonths } from "../src/services/visitor_key.ts";
import { ownTables } from "./db.ts";
import { deriveTouch, type Touch } from "../src/services/attribution.ts";
import type { ClickId } from "../src/shared/click_ids.ts";

export interface SeedOptions {
  /** Visits to write (default 1,000,000); the other counts scale with it. */
  visits?: number;
  /** Local days, today included (default 90). */
  days?: number;
  timeZone?: string;
  now?: Date;
  seed?: number;
  /**
   * Each visit also carries its link keys for the next months (default), as production writes them; false
   * leaves them empty, so a key of one month is another address than any key of another month.
   */
  linkKeys?: boolean;
  /** PostgreSQL only: the URL and schema of `db`, so rows go in through COPY. */
  copy?: { url: string; schema?: string };
}

export interface SeedResult {
  visits: number;
  /** Plan clicks. */
  clicks: number;
  /** WhatsApp clicks (clicks of kind whatsapp, migrations/00017). */
  whatsappClicks: number;
  conversions: number;
  leads: number;
  visitorKeys: number;
  /** First and last local day written. */
  start: string;
  end: string;
  /** Time spent writing rows, and bringing the roll-ups up to date. */
  writeSeconds: number;
  rollUpSeconds: number;
}

// Per 1,000,000 visits (the issue's default mix).
// Every conversion reports a stored lead of its session, so there are never more conversions than leads: a
// few reports are lost on the way (the browser leaves for the checkout page).
const PER_MILLION = { visitorKeys: 200_000, clicks: 100_000, leads: 20_000, conversions: 19_400 };
// WhatsApp clicks per 1,000,000 page views: the Pipefy page's contact button, the home page's final call to
// action (and any wa.me link) on the page viewed. Drawn from their own random stream, so the rest of the seed
// is the same rows with or without them.
const WHATSAPP_PER_MILLION = 30_000;
/** services/leads.ts's first-touch window (ATTRIBUTION_DAYS, 30 by default). */
const ATTRIBUTION_DAYS = 30;

/** A session start of a visitor: its time, touch and landing page. */
interface SessionStart {
  at: number;
  touch: Touch;
  campaign: string | null;
  page: string;
}

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Weighted choice, precomputed as a cumulative table. */
function weighted<T>(items: [T, number][]): (r: number) => T {
  const total = items.reduce((a, [, w]) => a + w, 0);
  let acc = 0;
  const cum = items.map(([v, w]) => [v, (acc += w) / total] as const);
  return (r) => {
    for (const [v, c] of cum) if (r < c) return v;
    return cum[cum.length - 1][0];
  };
}

interface Utm {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  term: string | null;
  content: string | null;
}
const NO_UTM_VISIT: Utm = { source: null, medium: null, campaign: null, term: null, content: null };

const SOURCE = weighted<string | null>([
  [null, 42],
  ["google", 24],
  ["facebook", 10],
  ["instagram", 9],
  ["newsletter", 5],
  ["linkedin", 3],
  ["youtube", 3],
  ["whatsapp", 2],
  ["bing", 1],
  ["tiktok", 1],
]);
const MEDIUM: Record<string, string[]> = {
  google: ["cpc", "cpc", "cpc", "organic"],
  facebook: ["paid_social", "social"],
  instagram: ["paid_social", "social", "stories"],
  newsletter: ["email"],
  linkedin: ["paid_social", "social"],
  youtube: ["video"],
  whatsapp: ["messaging"],
  bing: ["cpc"],
  tiktok: ["paid_social"],
};
const CAMPAIGNS: Record<string, (string | null)[]> = {
  google: ["automacao-whatsapp", "chatbot-atendimento", "black-friday", "marca", null],
  facebook: ["remarketing", "lancamento-chatbot", "black-friday", "lookalike-clientes"],
  instagram: ["remarketing", "lancamento-chatbot", "stories-demo", "black-friday"],
  newsletter: ["newsletter-semanal", "webinar-crm", "novidades-produto"],
  linkedin: ["b2b-decisores", "webinar-crm"],
  youtube: ["demo-pipefy", "demo-trello"],
  whatsapp: ["indicacao-clientes", null],
  bing: ["automacao-whatsapp"],
  tiktok: ["lancamento-chatbot"],
};
// Where visitors without UTM come from (document.referrer's host; null: typed, bookmarked or an app that
// sends none), as a Brazilian B2B site sees it.
const REFERRER = weighted<string | null>([
  [null, 40],
  ["www.google.com.br", 24],
  ["www.google.com", 5],
  ["com.google.android.googlequicksearchbox", 2],
  ["www.bing.com", 1.5],
  ["duckduckgo.com", 0.5],
  ["l.instagram.com", 6],
  ["lm.facebook.com", 3],
  ["l.facebook.com", 1],
  ["web.whatsapp.com", 2],
  ["com.whatsapp", 1.5],
  ["www.linkedin.com", 1.5],
  ["t.co", 0.5],
  ["www.youtube.com", 1.5],
  ["com.google.android.gm", 1],
  ["outlook.live.com", 0.5],
  ["chatgpt.com", 2],
  ["www.perplexity.ai", 0.5],
  ["gemini.google.com", 0.3],
  ["blog.pipefy.com", 1],
  ["www.exame.com", 0.5],
  ["comunidade.parceiro.com.br", 1],
]);
// The referrer a UTM-tagged visit usually arrives with, and the click id its ad network adds.
const UTM_REFERRER: Record<string, [string | null, ClickId | null]> = {
  google: ["www.google.com.br", "gclid"],
  facebook: ["lm.facebook.com", "fbclid"],
  instagram: ["l.instagram.com", "fbclid"],
  newsletter: ["com.google.android.gm", null],
  linkedin: ["www.linkedin.com", null],
  youtube: ["www.youtube.com", null],
  whatsapp: ["web.whatsapp.com", null],
  bing: ["www.bing.com", "msclkid"],
  tiktok: ["www.tiktok.com", "ttclid"],
};
const TERMS = ["automacao whatsapp", "chatbot whatsapp", "whatsapp business api", "crm whatsapp", null];

const PAGE = weighted<string>(
  PUBLIC_PAGES.flatMap((page) =>
    LANGS.map((lang): [string, number] => {
      const byPage = { home: 60, pipefy: 9, trello: 8, customers: 6, terms: 1, privacy: 1 } as Record<
        string,
        number
      >;
      const byLang = { pt: 85, en: 9, es: 6 } as Record<string, number>;
      return [pagePath(page, lang), (byPage[page] ?? 1) * byLang[lang]];
    })
  ),
);
// Share of visits per hour of the local day (business hours, an evening bump, quiet nights).
const HOURS = weighted<number>(
  [
    1,
    0.6,
    0.4,
    0.3,
    0.3,
    0.5,
    1.2,
    2.5,
    4.5,
    6,
    6.5,
    6.3,
    5,
    5.8,
    6.4,
    6.2,
    5.8,
    5.2,
    4.6,
    4.8,
    5,
    4.2,
    3,
    1.8,
  ]
    .map((w, h) => [h, w]),
);
const PLANS = weighted<[string, string, string]>([
  [["micro", "Micro", "pricing_micro_plan"], 3],
  [["pro", "Pro", "pricing_pro_plan"], 4],
  [["premium", "Premium", "pricing_premium_plan"], 2],
  [["enterprise", "Especialista", "pricing_specialist_enterprise"], 1],
]);
const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Diego",
  "Eduarda",
  "Felipe",
  "Gabriela",
  "Henrique",
  "Isabela",
  "João",
];
const LAST = ["Silva", "Souza", "Oliveira", "Santos", "Pereira", "Costa", "Almeida", "Ferreira", "Ribeiro"];
const DDD = ["11", "21", "31", "41", "47", "48", "51", "61", "71", "81", "85"];

/** The UTC instant of a local midnight (handles any offset, DST included). */
function localMidnight(day: string, timeZone: string): number {
  const [y, m, d] = day.split("-").map(Number);
  const guess = Date.UTC(y, m - 1, d);
  const offsetAt = (ms: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(ms);
    const g = (t: string) => Number(parts.find((p) => p.type === t)!.value);
    return Date.UTC(g("year"), g("month") - 1, g("day"), g("hour"), g("minute"), g("second")) - ms;
  };
  let ms = guess - offsetAt(guess);
  ms = guess - offsetAt(ms);
  return ms;
}

/** 32 hex characters from (month, visitor): a stand-in for HMAC(month salt, IP). */
function keyOf(month: number, visitor: number): string {
  let out = "";
  for (let i = 0; i < 4; i++) {
    let h = Math.imul(visitor + 0x9e3779b9 * (i + 1), 0x85ebca6b) ^ Math.imul(month + 1, 0xc2b2ae35);
    h ^= h >>> 16;
    h = Math.imul(h, 0x7feb352d);
    h ^= h >>> 15;
    h = Math.imul(h, 0x846ca68b);
    h ^= h >>> 16;
    out += (h >>> 0).toString(16).padStart(8, "0");
  }
  return out;
}

const NULL = "\\N";
const cell = (v: string | null) => (v === null ? NULL : v);

/** Rows of one table as COPY text lines, written in chunks. */
interface Sink {
  add(line: string): Promise<void>;
  end(): Promise<void>;
}

type Table = "visits" | "clicks" | "conversions" | "leads" | "engagements";
// Who the visitors are (migrations/00020): device, browser, system, country and state of a session, chosen
// from its number (not from rand(), so the rest of the data set stays what it was before them).
const AUDIENCE_COLUMNS = ["device", "browser", "os", "country", "region"];
const AUDIENCE_MIX: [number, string][] = [
  [30, "mobile\tChrome\tAndroid\tBR\tSP"],
  [14, "mobile\tSafari\tiOS\tBR\tSP"],
  [10, "mobile\tChrome\tAndroid\tBR\tRJ"],
  [8, "mobile\tInstagram\tiOS\tBR\tMG"],
  [6, "mobile\tSamsung Internet\tAndroid\tBR\tPR"],
  [5, "mobile\tFacebook\tAndroid\tBR\tRS"],
  [5, "mobile\tWhatsApp\tAndroid\tBR\tBA"],
  [9, "desktop\tChrome\tWindows\tBR\tSP"],
  [4, "desktop\tEdge\tWindows\tBR\tRJ"],
  [3, "desktop\tSafari\tmacOS\tBR\tSP"],
  [2, "tablet\tSafari\tiOS\tBR\tSC"],
  [2, "desktop\tFirefox\tLinux\tPT\t\\N"],
  [2, "mobile\tChrome\tAndroid\tUS\t\\N"],
];
const AUDIENCE_TOTAL = AUDIENCE_MIX.reduce((a, [w]) => a + w, 0);
function audienceCells(sessionNumber: number): string {
  let x = (Math.imul(sessionNumber + 1, 2654435761) >>> 0) % AUDIENCE_TOTAL;
  for (const [w, cells] of AUDIENCE_MIX) {
    if (x < w) return cells;
    x -= w;
  }
  return AUDIENCE_MIX[0][1];
}
const COLUMNS: Record<Table, string[]> = {
  visits: [
    "occurred_at",
    "visitor_key",
    "session_id",
    "source",
    "utm_source",
    "utm_campaign",
    "utm_medium",
    "utm_term",
    "utm_content",
    "referrer_host",
    "click_ids",
    "traffic_source",
    "traffic_medium",
    "channel",
    "entry",
    "link_keys",
    ...AUDIENCE_COLUMNS,
  ],
  clicks: [
    "occurred_at",
    "visitor_key",
    "session_id",
    "source",
    "utm_source",
    "utm_campaign",
    "utm_medium",
    "traffic_source",
    "channel",
    "kind",
    ...AUDIENCE_COLUMNS,
  ],
  conversions: [
    "occurred_at",
    "visitor_key",
    "session_id",
    "source",
    "utm_source",
    "utm_campaign",
    "utm_medium",
    "channel",
  ],
  engagements: ["occurred_at", "session_id", "source", "engaged_ms"],
  leads: [
    "submitted_at",
    "name",
    "email",
    "whatsapp",
    "plan",
    "plan_label",
    "utm_source",
    "utm_campaign",
    "utm_medium",
    "page",
    "session_id",
    "first_source",
    "first_medium",
    "first_campaign",
    "first_channel",
    "first_landing_page",
    "first_touch_at",
    "last_source",
    "last_medium",
    "last_campaign",
    "last_channel",
    "last_landing_page",
    "last_referrer",
  ],
};
const TYPES: Record<string, string> = {
  occurred_at: "timestamptz",
  engaged_ms: "integer",
  submitted_at: "timestamptz",
  first_touch_at: "timestamptz",
};
/**
 * Columns sent as text and cast on insert (an array cannot travel inside a text[] parameter, and postgres.js
 * writes every element of a boolean[] parameter but a JavaScript `true` as false).
 */
const CASTS: Record<string, string> = { link_keys: "text[]", click_ids: "text[]", entry: "boolean" };

function copySink(sql: postgres.Sql, table: Table): Promise<Sink> {
  return (async () => {
    // deno-lint-ignore no-explicit-any
    const stream: any = await sql.unsafe(`copy ${table} (${COLUMNS[table].join(", ")}) from stdin`)
      .writable();
    const done = new Promise<void>((resolve, reject) => {
      stream.on("finish", resolve);
      stream.on("error", reject);
    });
    let buffer: string[] = [];
    const flush = async () => {
      if (!buffer.length) return;
      const ok = stream.write(buffer.join("\n") + "\n");
      buffer = [];
      if (!ok) await new Promise((resolve) => stream.once("drain", resolve));
    };
    return {
      async add(line) {
        buffer.push(line);
        if (buffer.length >= 20_000) await flush();
      },
      async end() {
        await flush();
        stream.end();
        await done;
      },
    };
  })();
}

function insertSink(db: Db, table: Table): Sink {
  const cols = COLUMNS[table];
  let rows: string[][] = [];
  const flush = async () => {
    if (!rows.length) return;
    const arrays = cols.map((_, i) => rows.map((r) => (r[i] === NULL ? null : r[i])));
    const unnest = cols.map((c, i) => `$${i + 1}::${TYPES[c] ?? "text"}[]`).join(", ");
    const select = cols.map((c) => (CASTS[c] ? `${c}::${CASTS[c]}` : c)).join(", ");
    await db.query(
      `insert into ${table} (${cols.join(", ")}) select ${select} from unnest(${unnest}) as t(${
        cols.join(", ")
      })`,
      arrays,
    );
    rows = [];
  };
  return {
    async add(line) {
      rows.push(line.split("\t"));
      if (rows.length >= 20_000) await flush();
    },
    end: flush,
  };
}

/** Writes the data set and brings the roll-ups up to date; returns what it wrote and how long it took. */
export async function seedAnalytics(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const visits = Math.max(1, Math.round(options.visits ?? 1_000_000));
  const scale = visits / 1_000_000;
  const days = options.days ?? 90;
  const timeZone = options.timeZone ?? "America/Sao_Paulo";
  const now = (options.now ?? new Date()).getTime();
  const rand = prng(options.seed ?? 7);
  const waRand = prng((options.seed ?? 7) + 1_000_003);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const end = todayIn(timeZone, new Date(now));
  const start = addDays(end, -(days - 1));
  const t0 = performance.now();

  const pg = options.copy && db.kind === "postgres"
    ? postgres(options.copy.url, {
      max: 5, // one COPY per table, each holding its connection to the end
      onnotice: () => {},
      connection: options.copy.schema ? { search_path: options.copy.schema } : {},
    })
    : undefined;
  const sinks = {} as Record<Table, Sink>;
  for (const table of ["visits", "clicks", "conversions", "leads", "engagements"] as Table[]) {
    sinks[table] = pg ? await copySink(pg, table) : insertSink(db, table);
  }

  // Day weights: a weekly rhythm (quieter weekends), a slow growth and campaign bursts; today only up to now.
  const dayStarts = Array.from({ length: days + 1 }, (_, d) => localMidnight(addDays(start, d), timeZone));
  const weights = Array.from({ length: days }, (_, d) => {
    const weekday = new Date(addDays(start, d) + "T12:00:00Z").getUTCDay();
    const open = Math.min(1, Math.max(0, (now - dayStarts[d]) / (dayStarts[d + 1] - dayStarts[d])));
    return (weekday === 0 || weekday === 6 ? 0.65 : 1) * (0.8 + (0.4 * d) / days) *
      (1 + 0.25 * Math.sin(d / 3.1)) * open;
  });
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  // Each local month gets its own visitor keys (the salt rotates), in proportion to its visits.
  const months = [...new Set(Array.from({ length: days }, (_, d) => addDays(start, d).slice(0, 7)))];
  const monthVisits = months.map((m) =>
    weights.reduce((a, w, d) => a + (addDays(start, d).startsWith(m) ? w : 0), 0) / totalWeight * visits
  );
  const pools = monthVisits.map((v) =>
    Math.max(1, Math.round((PER_MILLION.visitorKeys * scale * v) / visits))
  );
  const keys = months.map((_, i) => new Array<string | undefined>(pools[i]));
  const seen = months.map((_, i) => new Uint8Array(pools[i]));
  let visitorKeys = 0;

  const clickChance = PER_MILLION.clicks / 1_000_000;
  const leadChance = PER_MILLION.leads / PER_MILLION.clicks;
  const conversionChance = PER_MILLION.conversions / PER_MILLION.leads;
  const count = { visits: 0, clicks: 0, whatsappClicks: 0, conversions: 0, leads: 0 };
  let remaining = visits;
  let weightLeft = totalWeight;
  let sessions = 0;
  // The server derives a touch per event; the seed does the same, once per distinct arrival.
  const touches = new Map<string, Touch>();
  const touchOf = (utm: Utm, referrer: string | null, clickId: ClickId | null): Touch => {
    const id = `${utm.source}|${utm.medium}|${utm.campaign}|${referrer}|${clickId}`;
    let touch = touches.get(id);
    if (!touch) {
      touch = deriveTouch({
        utmSource: utm.source,
        utmMedium: utm.medium,
        utmCampaign: utm.campaign,
        referrer,
        clickIds: clickId ? [clickId] : [],
      }, "zapflow.com.br");
      touches.set(id, touch);
    }
    return touch;
  };
  // Each visitor's session starts (entries) of the last ATTRIBUTION_DAYS, oldest first: a lead's first touch
  // is the earliest of them, as services/leads.ts finds it. Keyed by visitor number, which is one address
  // across months (its keys are linked, and the server derives every month's key from the address).
  const entries = new Map<number, SessionStart[]>();
  const attributionMs = ATTRIBUTION_DAYS * 86_400_000;

  for (let d = 0; d < days; d++) {
    const n = d === days - 1 ? remaining : Math.round((remaining * weights[d]) / weightLeft);
    remaining -= n;
    weightLeft -= weights[d];
    const month = months.indexOf(addDays(start, d).slice(0, 7));
    const pool = pools[month];
    // The months whose keys a visit of this day also carries (services/visitor_key.ts): the same visitor
    // number in a later month is the same address, as it would be under that month's salt.
    const linkAhead = options.linkKeys === false
      ? []
      : linkMonths(addDays(start, d), months[month]).map((_, k) => month + 1 + k);
    const dayStart = dayStarts[d];
    const dayEnd = Math.min(dayStarts[d + 1], now);
    // The day's browser sessions, in the order they start (so every earlier entry is known when a lead
    // looks for its first touch). About one page view in 1.6 starts a session.
    const plan: { at: number; views: number }[] = [];
    for (let left = n; left > 0;) {
      let views = 1;
      while (views < left && rand() < 0.375) views++;
      left -= views;
      let at = dayStart + HOURS(rand()) * 3_600_000 + Math.floor(rand() * 3_600_000);
      if (at >= dayEnd) at = dayStart + Math.floor(rand() * (dayEnd - dayStart));
      plan.push({ at, views });
    }
    plan.sort((a, b) => a.at - b.at);
    for (const { at: startAt, views } of plan) {
      // Returning visitors: low ids come back far more often than high ones.
      const visitor = Math.floor(pool * Math.pow(rand(), 1.6));
      let key = keys[month][visitor];
      if (!key) key = keys[month][visitor] = keyOf(month, visitor);
      if (!seen[month][visitor]) {
        seen[month][visitor] = 1;
        visitorKeys++;
      }
      // One touch per session: every page view, click and lead of it carries the same UTM origin.
      const source = SOURCE(rand());
      const utm: Utm = source
        ? {
          source,
          medium: pick(MEDIUM[source]),
          campaign: pick(CAMPAIGNS[source]),
          term: source === "google" ? pick(TERMS) : null,
          content: source === "facebook" || source === "instagram"
            ? pick(["video-demo", "carrossel", null])
            : null,
        }
        : NO_UTM_VISIT;
      // Most tagged visits come with their network's referrer; ad clicks carry its click id.
      const [taggedReferrer, taggedClick] = source ? UTM_REFERRER[source] : [null, null];
      const referrer = source ? (rand() < 0.7 ? taggedReferrer : null) : REFERRER(rand());
      const paidMedium = utm.medium === "cpc" || utm.medium === "paid_social";
      const clickId = taggedClick && (paidMedium || taggedClick === "fbclid") && rand() < 0.85
        ? taggedClick
        : !source && referrer === "www.google.com.br" && rand() < 0.08
        ? "gclid" // ads without UTM: auto-tagging only
        : null;
      const touch = touchOf(utm, referrer, clickId);
      const audience = audienceCells(sessions);
      const session = `${startAt.toString(36)}.${(sessions++).toString(36)}`;
      const links = `{${linkAhead.map((m) => keyOf(m, visitor)).join(",")}}`;
      const utmCells = `${cell(utm.source)}\t${cell(utm.campaign)}\t${cell(utm.medium)}`;
      // The landing page keeps the campaign's query when it had one.
      let landing = PAGE(rand());
      if (source && rand() < 0.35) {
        landing += `?utm_source=${source}&utm_medium=${utm.medium}` +
          (utm.campaign ? `&utm_campaign=${utm.campaign}` : "");
      }
      const history = entries.get(visitor) ?? [];
      entries.set(visitor, history);
      while (history.length && history[0].at < startAt - attributionMs) history.shift();
      history.push({ at: startAt, touch, campaign: utm.campaign, page: landing });
      // Page views a minute or two apart, never past the day's end (nor now).
      let at = startAt;
      for (let v = 0; v < views; v++) {
        if (v > 0) at = Math.min(at + 15_000 + Math.floor(rand() * 150_000), dayEnd - 1);
        const page = v === 0 ? landing : PAGE(rand());
        await sinks.visits.add(
          `${new Date(at).toISOString()}\t${key}\t${session}\t${page}\t${cell(utm.source)}\t${
            cell(utm.campaign)
          }\t${cell(utm.medium)}\t${cell(utm.term)}\t${cell(utm.content)}\t${cell(touch.referrer)}\t${
            clickId ? `{${clickId}}` : "{}"
          }\t${touch.source}\t${touch.medium}\t${touch.channel}\t${
            v === 0 ? "t" : "f"
          }\t${links}\t${audience}`,
        );
        count.visits++;
        if (waRand() < WHATSAPP_PER_MILLION / 1_000_000) {
          // A WhatsApp button of this page (its path: the query is not part of a WhatsApp click's page).
          const waAt = Math.min(at + 5_000 + Math.floor(waRand() * 90_000), now - 1);
          await sinks.clicks.add(
            `${new Date(waAt).toISOString()}\t${key}\t${session}\t${
              page.split("?")[0]
            }\t${utmCells}\t${touch.source}\t${touch.channel}\twhatsapp\t${audience}`,
          );
          count.whatsappClicks++;
        }
        // Four page views in five send their visible time when hidden (3 s to about 3 min, from the view's
        // number, not from rand(): the rest of the data set stays what it was before engagement existed).
        if (count.visits % 5 !== 0) {
          const engagedMs = 3_000 + (Math.imul(count.visits, 2654435761) >>> 0) % 170_000;
          await sinks.engagements.add(
            `${new Date(Math.min(at + engagedMs, now - 1)).toISOString()}\t${session}\t${page}\t${engagedMs}`,
          );
        }
        // Paid traffic clicks a plan a little more often; the average stays at the issue's mix.
        const lift = source === "google" ? 1.25 : source ? 1.05 : 0.85;
        if (rand() >= clickChance * lift) continue;
        // A plan click opens the lead form on this page.
        const chosen = PLANS(rand());
        const clickAt = Math.min(at + 20_000 + Math.floor(rand() * 120_000), now - 1);
        await sinks.clicks.add(
          `${new Date(clickAt).toISOString()}\t${key}\t${session}\t${
            chosen[2]
          }\t${utmCells}\t${touch.source}\t${touch.channel}\tplan\t${audience}`,
        );
        count.clicks++;
        if (rand() >= leadChance) continue;
        // The form is sent and stored; the browser then reports the conversion, which the server stores for
        // that stored lead of the session (a report lost on the way leaves a lead without one).
        const leadAt = Math.min(clickAt + 45_000 + Math.floor(rand() * 240_000), now - 1);
        const first = pick(FIRST);
        const last = pick(LAST);
        count.leads++;
        const email = `${first}.${last}.${count.leads}@exemplo.com.br`.toLowerCase().normalize("NFD")
          .replace(/[\u0300-\u036f]/g, "");
        const phone = `+55 (${pick(DDD)}) 9${String(1000 + Math.floor(rand() * 9000))}-${
          String(1000 + Math.floor(rand() * 9000))
        }`;
        // First touch: the visitor's earliest session start in the attribution window (maybe this one).
        const firstTouch = history.find((e) => e.at >= leadAt - attributionMs)!;
        const touchCells = (t: Touch, campaign: string | null, landingPage: string) =>
          `${t.source}\t${t.medium}\t${cell(campaign)}\t${t.channel}\t${landingPage}`;
        await sinks.leads.add(
          `${new Date(leadAt).toISOString()}\t${first} ${last}\t${email}\t${phone}\t${chosen[0]}\t${
            chosen[1]
          }\t${utmCells}\t${page}\t${session}\t${
            touchCells(firstTouch.touch, firstTouch.campaign, firstTouch.page)
          }\t${new Date(firstTouch.at).toISOString()}\t${touchCells(touch, touch.campaign, landing)}\t${
            cell(touch.referrer)
          }`,
        );
        if (rand() >= conversionChance) continue;
        const convAt = Math.min(leadAt + 300 + Math.floor(rand() * 1_500), now);
        await sinks.conversions.add(
          `${new Date(convAt).toISOString()}\t${key}\t${session}\t${
            chosen[2]
          }\t${utmCells}\t${touch.channel}`,
        );
        count.conversions++;
      }
    }
  }
  for (const sink of Object.values(sinks)) await sink.end();
  await pg?.end({ timeout: 5 });
  await analyzeOwnTables(db);
  const writeSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  await bringRollUpsUpToDate(db, timeZone, new Date(now));
  return {
    ...count,
    visitorKeys,
    start,
    end,
    writeSeconds,
    rollUpSeconds: (performance.now() - t1) / 1000,
  };
}

// What a long-running server's roll-up job would have done by now.
async function bringRollUpsUpToDate(db: Db, timeZone: string, now: Date): Promise<void> {
  await runRollups(db, timeZone, now);
  await analyzeOwnTables(db);
}

// Fresh planner statistics for this schema's tables only. A bare `analyze` on PostgreSQL walks every table of
// the database: in the test suite that is every other test process's schema too, and it queues behind any
// lock another process holds (one run of src/db/invariants_test.ts waited 7 minutes that way).
async function analyzeOwnTables(db: Db): Promise<void> {
  const tables = await ownTables(db);
  if (tables.length) await db.exec(`analyze ${tables.join(", ")}`);
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      visits: { type: "string", default: "1000000" },
      days: { type: "string", default: "90" },
      schema: { type: "string" },
    },
  });
  const url = Deno.env.get("DATABASE_URL") || undefined;
  const timeZone = Deno.env.get("ANALYTICS_TZ") || "America/Sao_Paulo";
  if (values.schema && !/^[a-z_][a-z0-9_]*$/.test(values.schema)) throw new Error("--schema: a plain name");
  if (values.schema && url) {
    const admin = await openDb({ databaseUrl: url, max: 1 });
    await admin.exec(`create schema if not exists ${values.schema}`);
    await admin.close();
  }
  const db = await openDb(
    url
      ? { databaseUrl: url, schema: values.schema, max: 4 }
      : { dataDir: Deno.env.get("DATA_DIR") || "./data" },
  );
  await migrate(db);
  const result = await seedAnalytics(db, {
    visits: Number(values.visits),
    days: Number(values.days),
    timeZone,
    copy: url ? { url, schema: values.schema } : undefined,
  });
  await db.close();
  console.log(
    `${db.kind}: ${result.visits} visits (${result.visitorKeys} visitor keys), ${result.clicks} plan clicks, ` +
      `${result.whatsappClicks} WhatsApp clicks, ` +
      `${result.conversions} conversions, ${result.leads} leads, ${result.start} to ${result.end} ` +
      `(${timeZone}); rows written in ${result.writeSeconds.toFixed(1)} s, roll-ups in ${
        result.rollUpSeconds.toFixed(1)
      } s`,
  );
}
