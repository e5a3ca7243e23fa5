import type { SqlDriver } from '../src/store/sql-driver.js';
import { applyBatch, type BatchRows } from './batch.js';
import { decodeFactEvent, type FactEvent, type RawFactEvent } from './feed/fact-event.js';
import type { FactFeed } from './feed/feed.js';
import { createIndexes, readCheckpoint, resetTables } from './schema.js';
import { changedRows, CheckpointMoved, loadBatchRows, writePage } from './write-batch.js';

// Large pages: fewer transactions, and fewer purchases whose events straddle two pages (written twice).
export const PAGE_SIZE = 20_000;
/** How often a rebuild goes on after another writer moved the checkpoint under it. */
const MOVED_RETRIES = 10;

const decodePage = (raw: readonly RawFactEvent[]): FactEvent[] =>
  raw.map(decodeFactEvent).filter((e): e is FactEvent => e !== undefined);

export interface CatchUpOptions {
  pageSize?: number;
  /** Called after each page is committed, with the checkpoint it moved to. */
  onCommitted?: (position: bigint) => void;
}

/**
 * Applies every page from the stored checkpoint to the end of `$all` (operator tools, rebuilds), as a
 * pipeline: while page N is written (its own transaction, compare-and-set on the checkpoint), page N+1
 * is read, decoded, its rows loaded and the page applied. N+1 sees N's changed rows from memory, since
 * they may not be committed yet; every other row it needs was committed by an earlier page. On
 * PostgreSQL the database writes while this process computes; PGlite takes turns, but the JSON and
 * the pure apply still overlap its work. Only one page's rows are ever held.
 */
export async function catchUp(
  db: SqlDriver,
  feed: FactFeed,
  opts: CatchUpOptions = {},
): Promise<{ position: bigint; events: number }> {
  const pageSize = opts.pageSize ?? PAGE_SIZE;
  let position = (await readCheckpoint(db)).position;
  let events = 0;
  let carry: BatchRows | undefined;
  let writing: Promise<void> = Promise.resolve();
  let next = feed.read(position, pageSize);
  try {
    for (;;) {
      const raw = await next;
      if (raw.length === 0) {
        await writing;
        return { position, events };
      }
      const to = raw.at(-1)!.position;
      next = feed.read(to, pageSize);
      next.catch(() => {}); // awaited on the next turn; a failure meanwhile must not leave it unhandled
      const page = decodePage(raw);
      const changes = applyBatch(page, await loadBatchRows(db, page, carry));
      await writing;
      writing = writePage(db, position, to, changes).then(() => opts.onCommitted?.(to));
      writing.catch(() => {}); // awaited before the next write or at the end
      carry = changedRows(changes);
      position = to;
      events += raw.length;
    }
  } finally {
    await writing.catch(() => {});
  }
}

/** Empties every read-model table and builds them again from the first event (secondary indexes last). */
export async function rebuild(
  db: SqlDriver,
  feed: FactFeed,
  opts: CatchUpOptions = {},
): Promise<{ position: bigint; events: number }> {
  await db.transaction((tx) => resetTables(tx, { indexes: false }));
  let last = 0n;
  const told = (position: bigint) => {
    last = position;
    opts.onCommitted?.(position);
  };
  try {
    // A running service's projector may write pages of this same rebuild meanwhile (`ops replay` beside
    // the service): every page is a compare-and-set on the checkpoint, so a page that finds it moved goes on
    // from where it now is. Bounded: the projector only moves it forward, towards the end of `$all`.
    for (let attempt = 1; ; attempt++) {
      try {
        // After a move, `events` counts what this process applied from there on.
        const done = await catchUp(db, feed, { ...opts, onCommitted: told });
        // The other writer may have committed the last pages: the caller still hears where the rebuild ended.
        if (done.position !== last) opts.onCommitted?.(done.position);
        return done;
      } catch (err) {
        if (!(err instanceof CheckpointMoved) || attempt >= MOVED_RETRIES) throw err;
      }
    }
  } finally {
    await db.transaction((tx) => createIndexes(tx));
  }
}
