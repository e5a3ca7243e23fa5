import type { Logger } from '../src/runtime/log.js';
import type { EventStoreWithProjections } from '../src/store/store-with-projections.js';
import type { SqlDriver } from '../src/store/sql-driver.js';
import type { FactFeed } from './feed/feed.js';
import { sqlFactFeed } from './feed/sql-feed.js';
import { storeFactFeed } from './feed/store-feed.js';
import { ensureReadModels, readCheckpoint } from './schema.js';

// The read side's handle: the SQL database holding the read-model tables, the feed they are built
// from, and read-your-writes waiting on their checkpoint (which works from any process: it reads the
// checkpoint row, so a follower instance waits for the leader's projector).

export interface ReadModels {
  readonly db: SqlDriver;
  readonly feed: FactFeed;
  /** Resolves once the read models include every event up to `position`. */
  waitFor(position: bigint, timeoutMs?: number): Promise<void>;
  /** Resolves once the read models include every event appended before the call. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Tells waiters in this process that the checkpoint moved (the local projector calls it). */
  advanced(): void;
  close(): Promise<void>;
}

/**
 * The read models on `store`. SQL stores keep them beside the events; an EventStoreDB store's go to
 * `readStore`, which the caller opens (src/store/open/read-store.ts) and these read models close: the
 * projections receive their stores, they never open one.
 */
export async function openReadModels(
  store: EventStoreWithProjections,
  opts: { readStore?: EventStoreWithProjections | undefined; log?: Logger } = {},
): Promise<ReadModels> {
  const readStore = store.sql ? undefined : opts.readStore;
  const db = store.sql ?? readStore?.sql;
  if (!db) throw new Error('READ_STORE_URL must name a SQL store (file:<dir> or postgres://…)');
  const { created } = await ensureReadModels(db);
  if (created) opts.log?.info({}, 'read-model tables created; they are rebuilt from the first event in the background');
  const feed = store.sql ? sqlFactFeed(store.sql) : storeFactFeed(store);
  const local = new Set<() => void>();
  const sql = db;

  async function waitFor(position: bigint, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = (await readCheckpoint(sql)).position;
      if (at >= position) return;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`read models did not reach position ${position} within ${timeoutMs} ms (at ${at})`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          local.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(50, left));
        local.add(wake);
      });
    }
  }

  return {
    db: sql,
    feed,
    waitFor,
    caughtUp: async (timeoutMs) => waitFor(await feed.head(), timeoutMs),
    advanced: () => {
      for (const wake of [...local]) wake();
    },
    close: async () => {
      await readStore?.close();
    },
  };
}
