import { type Db, isUnavailable } from "../db/client.ts";
import {
  type Audience,
  type BatchedEvent,
  type ClickKind,
  type EventTable,
  insertConversionForLead,
  storeEventBatch,
  type TrackedEvent,
  type TrackedVisit,
} from "../db/tracking.ts";
import { RateLimited } from "../core/errors.ts";
import { log } from "../core/log.ts";
import { type Batcher, createBatcher } from "../core/batcher.ts";
import { LIMITS, quotaOf } from "./rate_limit.ts";
import { deriveTouch } from "./attribution.ts";
import type { ClickId } from "../shared/click_ids.ts";
import { pageKey } from "../shared/page_key.ts";

export interface TrackInput {
  source: string;
  sessionId: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
  /** The session's referring host, as the browser reported it (absent on conversions). */
  referrer?: string | null;
  /** The click ids on the session's landing URL. */
  clickIds?: ClickId[];
  /** Clicks: a plan button (default) or a WhatsApp button or link, whose source is its page. */
  kind?: ClickKind;
}

export interface VisitInput extends TrackInput {
  utmTerm: string | null;
  utmContent: string | null;
  /** This page started the session's touch (its landing page). */
  entry?: boolean;
}

export type TrackKind = "visit" | "click" | "conversion";

const TABLE: Record<TrackKind, EventTable> = { visit: "visits", click: "clicks", conversion: "conversions" };

interface Queued extends BatchedEvent {
  retryAfterSeconds: number;
}

/**
 * Counts a batch against the tracking limit and stores what passes, in one statement. Within the batch,
 * events take the hit numbers after the count their window had before, in arrival order, and those past
 * the limit are refused with RateLimited exactly as one-by-one counting would; the counters stay in the
 * database, so several instances share them.
 */
async function writeBatch(db: Db, items: Queued[]): Promise<(void | Error)[]> {
  const refused = await storeEventBatch(db, LIMITS.tracking.max, items);
  return items.map((item, i) => refused.has(i) ? new RateLimited(item.retryAfterSeconds) : undefined);
}

const UNAVAILABLE_LOG_EVERY_MS = 5_000;
let lastUnavailableLog = 0;

const writers = new WeakMap<Db, Batcher<Queued, void>>();

function writerFor(db: Db): Batcher<Queued, void> {
  let writer = writers.get(db);
  if (!writer) {
    writer = createBatcher<Queued, void>({
      write: (items) => writeBatch(db, items),
      // PostgreSQL overlaps a few batches on its pool; PGlite has one connection anyway.
      maxInFlight: db.kind === "postgres" ? 8 : 1,
      // No waiting for company: while batches are in flight, new events queue and go together in the next
      // one anyway, and any fixed wait would add to every answer's latency.
      maxWaitMs: 0,
      onError: (error, events) => {
        const fields = { error: error instanceof Error ? error.message : String(error), events };
        if (!isUnavailable(error)) return log.error("tracking batch not stored", fields);
        // The database is away or its disk full: every batch fails at once, so one line every few seconds.
        const now = Date.now();
        if (now - lastUnavailableLog < UNAVAILABLE_LOG_EVERY_MS) return;
        lastUnavailableLog = now;
        log.warn("tracking batches refused: database unavailable", fields);
      },
    });
    writers.set(db, writer);
  }
  return writer;
}

/**
 * Counts one first-party event against the client's tracking limit (RateLimited when over) and stores it,
 * stamped with the server's clock and the visitor key (never the IP), with its session's touch (source,
 * medium, channel) derived here; `ownHost` is this site's host (a referrer on it is no source); `audience`
 * is who sent it as categories (services/audience.ts), never the user agent or address. Events are
 * written in small groups (group commit); this resolves only once the event's group is committed, and a
 * failed group rejects with ServiceUnavailable and stores none of its events.
 */
export function recordEvent(
  db: Db,
  kind: TrackKind,
  input: TrackInput | VisitInput,
  visitorKey: string,
  now: Date,
  linkKeys?: string[],
  ownHost = "",
  audience?: Audience,
): Promise<void> {
  const touch = deriveTouch(
    { ...input, referrer: input.referrer ?? null, clickIds: input.clickIds ?? [] },
    ownHost,
  );
  const event: TrackedEvent | TrackedVisit = {
    occurredAt: now,
    visitorKey,
    sessionId: input.sessionId,
    // A page view is stored under its page key (no ad click ids, no trailing slash); a plan click's source is
    // the button's name, a WhatsApp click's its page's path (the query would split one page into many).
    source: kind === "visit"
      ? pageKey(input.source)
      : input.kind === "whatsapp"
      ? pageKey(input.source).split("?")[0]
      : input.source,
    utmSource: input.utmSource,
    utmCampaign: input.utmCampaign,
    utmMedium: input.utmMedium,
    trafficSource: touch.source,
    channel: touch.channel,
    ...(kind === "click" ? { clickKind: input.kind ?? "plan" } : {}),
    ...(audience ? { audience } : {}),
    ...(kind === "visit"
      ? {
        utmTerm: (input as VisitInput).utmTerm ?? null,
        utmContent: (input as VisitInput).utmContent ?? null,
        linkKeys,
        trafficMedium: touch.medium,
        referrerHost: touch.referrer,
        clickIds: input.clickIds ?? [],
        entry: (input as VisitInput).entry ?? false,
      }
      : {}),
  };
  return writerFor(db).add({ table: TABLE[kind], event, ...quotaOf(LIMITS.tracking, visitorKey, now) });
}

export interface EngagementInput {
  /** The page (path plus query), stored under its page key like its page view. */
  source: string;
  sessionId: string;
  /** Visible time on the page since its previous beacon, in ms. */
  engagedMs: number;
}

/**
 * Counts one engagement beacon against the client's tracking limit (RateLimited when over) and stores it
 * with the batch writer, like a page view: the server's time, the session id, the page key and the visible
 * time, and nothing about the visitor (no key, no UTM values).
 */
export function recordEngagement(
  db: Db,
  input: EngagementInput,
  visitorKey: string,
  now: Date,
): Promise<void> {
  const event: TrackedEvent = {
    occurredAt: now,
    visitorKey,
    sessionId: input.sessionId,
    source: pageKey(input.source),
    utmSource: null,
    utmCampaign: null,
    utmMedium: null,
    engagedMs: input.engagedMs,
  };
  return writerFor(db).add({ table: "engagements", event, ...quotaOf(LIMITS.tracking, visitorKey, now) });
}

/**
 * Stores a reported conversion (a submitted lead form), already counted against the client's tracking limit
 * by the route, only for a stored lead of the same tracking session, never more conversions than that
 * session's leads. Returns whether it was stored; the API answers 202 either way (routes/api/tracking.ts).
 */
export async function recordConversion(
  db: Db,
  input: TrackInput,
  visitorKey: string,
  now: Date,
): Promise<boolean> {
  return await insertConversionForLead(db, {
    occurredAt: now,
    visitorKey,
    sessionId: input.sessionId,
    source: input.source,
    utmSource: input.utmSource,
    utmCampaign: input.utmCampaign,
    utmMedium: input.utmMedium,
  });
}

/** Stores every queued event and refuses new ones (ServiceUnavailable): call before closing `db`. */
export async function closeTracking(db: Db): Promise<void> {
  await writers.get(db)?.close();
}
