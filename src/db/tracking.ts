import type { Db } from "./client.ts";
import {
  type AnyTrackedEvent,
  columnList,
  EVENT_TABLES,
  type EventTable,
  PACKED_RECORD,
  packEvent,
  type TrackedEvent,
  UNPACKED_COLUMNS,
} from "./event_columns.ts";

export type { Audience, ClickKind, EventTable, TrackedEvent, TrackedVisit } from "./event_columns.ts";

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

export interface BatchedEvent {
  table: EventTable;
  event: AnyTrackedEvent;
  /** Rate-limit bucket and window this event counts against. */
  bucket: string;
  windowStart: Date;
}

const insertFrom = (table: EventTable) =>
  `ins_${table} as (insert into ${table} (${columnList(table)}) select ${columnList(table)} from ranked
     where tbl = '${table}' and hit <= $2 order by i)`;

// One statement, so one round trip and one atomic commit per batch: the rows travel as one JSON text parameter
// (fixed SQL text whatever the batch size; `::text` first, as a json-typed parameter would be re-encoded), with
// one- or two-letter keys (db/event_columns.ts) and instants as epoch milliseconds, which keeps the text (and the socket write and JSON
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
        ${UNPACKED_COLUMNS}
      from json_to_recordset($1::text::json) as r(i integer, t text, b text, w bigint, ${PACKED_RECORD})${
  relaxed ? ", relaxed" : ""
}
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
  ${EVENT_TABLES.map(insertFrom).join(",\n  ")}
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
  const rows = batch.map(({ table, event, bucket, windowStart }, i) =>
    packEvent(event, { i, t: table, b: bucket, w: windowStart.getTime() })
  );
  // Prepared: the same text runs thousands of times a second, and its plan does not depend on the values.
  // Only the refused events come back (usually none), so an answer costs nothing per stored event.
  const refused = await db.query<{ i: number }>(STORE_BATCH[db.kind], [JSON.stringify(rows), max], {
    prepare: true,
  });
  return new Set(refused.map((r) => r.i));
}
