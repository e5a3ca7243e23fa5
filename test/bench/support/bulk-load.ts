import type { NewEvent } from '../../../src/store/port.js';
import { assertEventIds } from '../../../src/store/event-id.js';
import { inDialect, type InDialects, type SqlDriver } from '../../../src/store/sql-driver.js';
import { APPEND_ORDER_LOCK } from '../../../src/store/sql/statements.js';
import { factsText } from '../../../src/store/sqlite/sqlite-event-store.js';

// Fills a SQL event store (embedded PGlite or PostgreSQL) with whole streams, fast: one multi-row
// INSERT per ~2000 events instead of one append transaction per command. This bypasses the append
// path on purpose, and only to build large stores for benchmarks: the events themselves come from
// the real deciders (purchase-histories.ts), and the rows are what `append` would have written —
// the same columns, 0-based revisions per stream, the events' own UUIDs, positions in insertion
// order — taken under the same append-order lock, so a store built this way is an ordinary store
// (later appends, reads and subscriptions work on it).
//
// Streams must not exist yet: a loaded stream starts at revision 0, and UNIQUE (stream, revision)
// stops the load if one does. Columns are named explicitly, never `SELECT *`, so columns the
// schema computes itself (the generated `facts_v5`) are left to the database. SQLite has no such column: its
// facts are computed here by the function its appends use (src/store/sqlite/sqlite-event-store.ts).
//
//   const store = await openStore('file:' + dir);
//   await bulkLoad(store.sql!, purchaseHistories(10_000), { interleave: true });

export interface BulkLoadOptions {
  /** Events per INSERT (default 2000). */
  batchEvents?: number;
  /**
   * Interleave streams in global order as production does (quote many, then pay many): a window of
   * streams advances one event each per round, every stream keeping its own order. Default false:
   * each stream's events are consecutive.
   */
  interleave?: boolean;
}

export interface BulkLoadResult {
  events: number;
  streams: number;
  /** UTF-8 bytes of the events' data as JSON (what the store keeps per event, before compression). */
  bytes: number;
}

/** Streams in flight at once when interleaving: a few hundred purchases being quoted and paid together. */
export const INTERLEAVE_WINDOW = 500;

// The batch travels as one jsonb array ($1), split by the database; ORDER BY ord makes positions
// follow the batch order, as INSERT_EVENTS does for one append. (Measured on PGlite: as fast as
// jsonb_to_recordset, and faster than a `json` array whose elements are parsed again.)
const BULK_INSERT: InDialects = {
  postgres: `
  INSERT INTO events (stream, revision, id, type, data, metadata)
  SELECT x.ev->>'s', (x.ev->>'r')::bigint, (x.ev->>'i')::uuid, x.ev->>'t', x.ev->'d', x.ev->'m'
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(ev, ord)
  ORDER BY x.ord`,
  sqlite: `
  INSERT INTO events (stream, revision, id, type, data, metadata, created, facts)
  SELECT x.value->>'s', x.value->>'r', lower(x.value->>'i'), x.value->>'t', x.value->'d', x.value->'m', now(),
    x.value->'f'
  FROM json_each($1) x
  ORDER BY x.key`,
};

interface Row {
  stream: string;
  revision: number;
  event: NewEvent;
}

type Histories =
  | Iterable<{ stream: string; events: NewEvent[] }>
  | AsyncIterable<{ stream: string; events: NewEvent[] }>;

/** `histories` may be async (purchaseHistoriesInWorker), so generating overlaps with inserting. */
export async function bulkLoad(
  sql: SqlDriver,
  histories: Histories,
  opts: BulkLoadOptions = {},
): Promise<BulkLoadResult> {
  const batchEvents = opts.batchEvents ?? 2000;
  if (!Number.isInteger(batchEvents) || batchEvents < 1)
    throw new RangeError(`batchEvents must be a positive integer, got ${batchEvents}`);
  const result: BulkLoadResult = { events: 0, streams: 0, bytes: 0 };
  const counted = countStreams(histories, result);
  let parts: string[] = [];
  // One insert in flight while the next batch is built: overlaps generation with a server's work.
  let inFlight: Promise<void> | undefined;
  const flush = async () => {
    if (parts.length === 0) return;
    // A flat string (join), not a concatenation rope: PGlite walks the parameter char by char to
    // size it, which is several times slower on a rope.
    const payload = ['[', parts.join(','), ']'].join('');
    parts = [];
    await inFlight;
    inFlight = sql.transaction(
      async (tx) => {
        await tx.query(inDialect(tx, BULK_INSERT), [payload]);
      },
      sql.dialect === 'sqlite'
        ? {}
        : { first: APPEND_ORDER_LOCK, ...(sql.announceAppendSql ? { last: sql.announceAppendSql } : {}) },
    );
    inFlight.catch(() => {}); // handled where it is awaited; not an unhandled rejection meanwhile
  };
  try {
    for await (const row of opts.interleave ? interleaved(counted) : consecutive(counted)) {
      const data = JSON.stringify(row.event.data ?? null);
      result.bytes += Buffer.byteLength(data, 'utf8');
      result.events++;
      const facts =
        sql.dialect === 'sqlite' ? `,"f":${factsText(row.stream, row.event.type, row.event.data ?? null)}` : '';
      parts.push(
        `{"s":${JSON.stringify(row.stream)},"r":${row.revision},"i":${JSON.stringify(row.event.id)},` +
          `"t":${JSON.stringify(row.event.type)},"d":${data},"m":${JSON.stringify(row.event.metadata ?? {})}${facts}}`,
      );
      if (parts.length >= batchEvents) await flush();
    }
    await flush();
    await inFlight;
  } catch (err) {
    await inFlight?.catch(() => {});
    throw sql.translateError(err);
  }
  return result;
}

/** Counts streams and checks each one's ids (UUIDs, no repeats) as it passes. */
async function* countStreams(histories: Histories, result: BulkLoadResult) {
  for await (const h of histories) {
    if (h.events.length === 0) continue;
    assertEventIds(
      h.stream,
      h.events.map((e) => e.id),
    );
    result.streams++;
    yield h;
  }
}

async function* consecutive(histories: AsyncIterable<{ stream: string; events: NewEvent[] }>): AsyncGenerator<Row> {
  for await (const h of histories)
    for (let i = 0; i < h.events.length; i++) yield { stream: h.stream, revision: i, event: h.events[i]! };
}

/** Round-robin over a window of streams; a finished stream's place goes to the next one. */
async function* interleaved(histories: AsyncIterable<{ stream: string; events: NewEvent[] }>): AsyncGenerator<Row> {
  const source = histories[Symbol.asyncIterator]();
  const window: { stream: string; events: NewEvent[]; next: number }[] = [];
  let exhausted = false;
  const refill = async () => {
    while (!exhausted && window.length < INTERLEAVE_WINDOW) {
      const r = await source.next();
      if (r.done) exhausted = true;
      else window.push({ stream: r.value.stream, events: r.value.events, next: 0 });
    }
  };
  await refill();
  while (window.length > 0) {
    let kept = 0;
    for (const w of window) {
      yield { stream: w.stream, revision: w.next, event: w.events[w.next]! };
      if (++w.next < w.events.length) window[kept++] = w;
    }
    window.length = kept;
    await refill();
  }
}
