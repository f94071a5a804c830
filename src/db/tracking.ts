import type { Db, Queryable } from "./client.ts";

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
}

export interface TrackedVisit extends TrackedEvent {
  utmTerm: string | null;
  utmContent: string | null;
  /** The address's keys for the next months (services/visitor_key.ts visitorLinkKeys). */
  linkKeys?: string[];
  trafficMedium?: string | null;
  /** The referring site's host (never this site's). */
  referrerHost?: string | null;
  /** Names of the click ids on the landing URL. */
  clickIds?: string[];
  /** The page started the session's touch (its landing page). */
  entry?: boolean;
}

/** Stores one page view. */
export async function insertVisit(db: Queryable, v: TrackedVisit): Promise<void> {
  await db.query(
    `insert into visits (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign, utm_medium,
       utm_term, utm_content, link_keys, referrer_host, click_ids, traffic_source, traffic_medium, channel, entry)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      v.occurredAt,
      v.visitorKey,
      v.sessionId,
      v.source,
      v.utmSource,
      v.utmCampaign,
      v.utmMedium,
      v.utmTerm,
      v.utmContent,
      v.linkKeys ?? null,
      v.referrerHost ?? null,
      v.clickIds?.length ? v.clickIds : null,
      v.trafficSource ?? null,
      v.trafficMedium ?? null,
      v.channel ?? null,
      v.entry ?? false,
    ],
  );
}

/** Stores one plan-button click. */
export async function insertClick(db: Queryable, e: TrackedEvent): Promise<void> {
  await db.query(
    `insert into clicks (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign, utm_medium,
       traffic_source, channel)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      e.occurredAt,
      e.visitorKey,
      e.sessionId,
      e.source,
      e.utmSource,
      e.utmCampaign,
      e.utmMedium,
      e.trafficSource ?? null,
      e.channel ?? null,
    ],
  );
}

/** Stores one submitted lead form (as reported by the browser). */
export async function insertConversion(db: Queryable, e: TrackedEvent): Promise<void> {
  await db.query(
    `insert into conversions (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign,
       utm_medium)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [e.occurredAt, e.visitorKey, e.sessionId, e.source, e.utmSource, e.utmCampaign, e.utmMedium],
  );
}

/**
 * Stores a conversion only if its tracking session has more stored leads than conversions; the session's
 * lock keeps parallel reports of one lead from both passing the count. It takes the channel of the session's
 * latest lead (its last touch, decided by the server). Returns whether it was stored.
 */
export async function insertConversionForLead(db: Db, e: TrackedEvent): Promise<boolean> {
  if (!e.sessionId) return false;
  return await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext('conversion:' || $1))", [e.sessionId]);
    const rows = await tx.query(
      `insert into conversions (occurred_at, visitor_key, session_id, source, utm_source, utm_campaign,
         utm_medium, channel)
       select $1, $2, $3, $4, $5, $6, $7,
              (select last_channel from leads where session_id = $3 order by id desc limit 1)
        where (select count(*) from leads where session_id = $3)
            > (select count(*) from conversions where session_id = $3)
       returning id`,
      [e.occurredAt, e.visitorKey, e.sessionId, e.source, e.utmSource, e.utmCampaign, e.utmMedium],
    );
    return rows.length > 0;
  });
}

export type EventTable = "visits" | "clicks" | "conversions";

export interface BatchedEvent {
  table: EventTable;
  event: TrackedEvent | TrackedVisit;
  /** Rate-limit bucket and window this event counts against. */
  bucket: string;
  windowStart: Date;
}

const COLUMNS = "occurred_at, visitor_key, session_id, source, utm_source, utm_campaign, utm_medium";
const CLICK_COLUMNS = `${COLUMNS}, traffic_source, channel`;
const VISIT_COLUMNS =
  `${CLICK_COLUMNS}, utm_term, utm_content, link_keys, referrer_host, click_ids, traffic_medium, entry`;
const insertFrom = (table: EventTable, columns: string) =>
  `ins_${table} as (insert into ${table} (${columns}) select ${columns} from ranked
     where tbl = '${table}' and hit <= $2 order by i)`;

// One statement, so one round trip and one atomic commit per batch: the rows travel as one JSON text parameter
// (fixed SQL text whatever the batch size; `::text` first, as a json-typed parameter would be re-encoded), with
// one-letter keys and instants as epoch milliseconds, which keeps the text (and the socket write and JSON
// parsing at both ends) about 40% smaller. The counters are added per bucket and window, locked in bucket
// order (concurrent batches cannot deadlock), and each event's hit number is the window's count before this
// batch plus its rank in the batch.
//
// On PostgreSQL the statement commits asynchronously (`synchronous_commit` off for its own transaction only,
// through set_config(..., true)): PostgreSQL answers once the commit is in its write-ahead log buffers, and
// its WAL writer puts it on disk within 3 x wal_writer_delay (600 ms by default) instead of each batch
// waiting for its own fsync. The one window of loss: if PostgreSQL itself or its host crashes, tracking
// events acknowledged in that last fraction of a second are gone, whole batches at a time (never half a
// batch, and nothing is corrupted). An application crash, a restart or SIGTERM loses nothing. Leads, sessions
// and every other write keep the default synchronous commit. Page views are counts; a lead is a customer.
// PGlite keeps the synchronous commit: it has no WAL writer of its own and lives in the application's
// process, so there an application crash is a database crash.
const storeBatch = (relaxed: boolean) => `
  with ${relaxed ? "relaxed as (select set_config('synchronous_commit', 'off', true))," : ""}
  input as (
    select r.i, r.t as tbl, r.b as bucket, timestamptz 'epoch' + r.w * interval '1 millisecond' as window_start,
        timestamptz 'epoch' + r.o * interval '1 millisecond' as occurred_at, r.v as visitor_key,
        r.s as session_id, r.p as source, r.us as utm_source, r.uc as utm_campaign, r.um as utm_medium,
        r.ut as utm_term, r.un as utm_content, r.l as link_keys, r.ts as traffic_source, r.tm as traffic_medium,
        r.ch as channel, r.rh as referrer_host, r.ci as click_ids, coalesce(r.en, false) as entry
      from json_to_recordset($1::text::json) as r(i integer, t text, b text, w bigint, o bigint, v text, s text,
        p text, us text, uc text, um text, ut text, un text, l text[], ts text, tm text, ch text, rh text,
        ci text[], en boolean)${relaxed ? ", relaxed" : ""}
  ),
  adds as (select bucket, window_start, count(*)::integer as hits from input group by bucket, window_start),
  counted as (
    insert into rate_limits (bucket, window_start, hits)
    select bucket, window_start, hits from adds order by bucket, window_start
    on conflict (bucket, window_start) do update set hits = rate_limits.hits + excluded.hits
    returning bucket, window_start, hits
  ),
  ranked as (
    select input.*, counted.hits - adds.hits
        + row_number() over (partition by input.bucket, input.window_start order by input.i) as hit
      from input join adds using (bucket, window_start) join counted using (bucket, window_start)
  ),
  ${insertFrom("visits", VISIT_COLUMNS)},
  ${insertFrom("clicks", CLICK_COLUMNS)},
  ${insertFrom("conversions", COLUMNS)}
  select i, hit::integer as hit from ranked where hit > $2`;
const STORE_BATCH = { postgres: storeBatch(true), pglite: storeBatch(false) };

/**
 * Counts a batch of events against their rate-limit windows and stores those whose hit number in their
 * window is at most `max`, atomically. Returns the indexes (in `batch`) of the events refused as over `max`.
 */
export async function storeEventBatch(
  db: Db,
  max: number,
  batch: BatchedEvent[],
): Promise<Set<number>> {
  if (!batch.length) return new Set();
  const rows = batch.map(({ table, event: e, bucket, windowStart }, i) => ({
    i,
    t: table,
    b: bucket,
    w: windowStart.getTime(),
    o: e.occurredAt.getTime(),
    v: e.visitorKey,
    s: e.sessionId,
    p: e.source,
    us: e.utmSource,
    uc: e.utmCampaign,
    um: e.utmMedium,
    ut: "utmTerm" in e ? e.utmTerm : null,
    un: "utmContent" in e ? e.utmContent : null,
    l: "linkKeys" in e ? e.linkKeys : undefined,
    ts: e.trafficSource ?? undefined,
    ch: e.channel ?? undefined,
    tm: "trafficMedium" in e ? e.trafficMedium ?? undefined : undefined,
    rh: "referrerHost" in e ? e.referrerHost ?? undefined : undefined,
    ci: "clickIds" in e && e.clickIds?.length ? e.clickIds : undefined,
    en: "entry" in e && e.entry ? true : undefined,
  }));
  // Prepared: the same text runs thousands of times a second, and its plan does not depend on the values.
  // Only the refused events come back (usually none), so an answer costs nothing per stored event.
  const refused = await db.query<{ i: number }>(STORE_BATCH[db.kind], [JSON.stringify(rows), max], {
    prepare: true,
  });
  return new Set(refused.map((r) => r.i));
}
