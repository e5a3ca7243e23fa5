import type { SqlDriver } from '../src/store/sql/sql-driver.js';
import { decodeFactEvent, type FactEvent } from './feed/fact-event.js';
import type { FactFeed } from './feed/feed.js';
import { createIndexes, readCheckpoint, resetTables } from './schema.js';
import { applyPage } from './write-batch.js';

// Large pages: fewer transactions, and fewer purchases whose events straddle two pages (written twice).
export const PAGE_SIZE = 20_000;

/** Reads the page after `from` and applies it with the checkpoint; undefined when there is nothing after `from`. */
export async function applyNextPage(db: SqlDriver, feed: FactFeed, from: bigint, pageSize = PAGE_SIZE): Promise<{ to: bigint; events: number } | undefined> {
  const raw = await feed.read(from, pageSize);
  if (raw.length === 0) return undefined;
  const events = raw.map(decodeFactEvent).filter((e): e is FactEvent => e !== undefined);
  const to = raw.at(-1)!.position;
  await applyPage(db, from, to, events);
  return { to, events: raw.length };
}

/**
 * Applies every page from the stored checkpoint to the end of `$all` (operator tools, rebuilds). The
 * next page is read while the current one is written: on PostgreSQL the two use separate connections
 * and overlap; on PGlite they take turns but the page's JSON is parsed meanwhile.
 */
export async function catchUp(db: SqlDriver, feed: FactFeed, pageSize = PAGE_SIZE): Promise<{ position: bigint; events: number }> {
  let position = (await readCheckpoint(db)).position;
  let events = 0;
  let next = feed.read(position, pageSize);
  for (;;) {
    const raw = await next;
    if (raw.length === 0) return { position, events };
    const to = raw.at(-1)!.position;
    next = feed.read(to, pageSize);
    next.catch(() => {}); // awaited on the next turn; a failure of the write below must not leave it unhandled
    await applyPage(db, position, to, raw.map(decodeFactEvent).filter((e): e is FactEvent => e !== undefined));
    position = to;
    events += raw.length;
  }
}

/** Empties every read-model table and builds them again from the first event (secondary indexes last). */
export async function rebuild(db: SqlDriver, feed: FactFeed, pageSize = PAGE_SIZE): Promise<{ position: bigint; events: number }> {
  await db.transaction((tx) => resetTables(tx, { indexes: false }));
  try {
    return await catchUp(db, feed, pageSize);
  } finally {
    await db.transaction((tx) => createIndexes(tx));
  }
}
