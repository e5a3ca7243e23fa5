import { rebuild } from '../../projections/catch-up.js';
import { openReadModels } from '../../projections/read-models.js';
import { READ_MODEL_TABLES } from '../../projections/schema.js';
import { openReadStore } from '../store/open/read-store.js';
import type { OperatorSession } from './session.js';

// Empties every read-model table and rebuilds them all from the first event of `$all` with the
// projection code the service runs (`ops replay`). They are rebuilt together because they advance
// together (one checkpoint, one transaction per page).

export interface ReplayResult {
  table: string;
  rows: number;
}

/** How far a rebuild is: the checkpoint it committed last, of the newest event's position when it began. */
export interface ReplayProgress {
  position: bigint;
  head: bigint;
}

/**
 * Rebuilds every read model; `onProgress` hears the head first (position 0) and then each page committed
 * (projections/catch-up.ts's onCommitted), so a terminal can count a long rebuild (ops/progress.ts).
 */
export async function replayReadModels(
  session: OperatorSession,
  onProgress?: (p: ReplayProgress) => void,
): Promise<{ results: ReplayResult[]; position: string; events: number }> {
  const store = await session.store();
  const models = await openReadModels(store, {
    readStore: await openReadStore(store, session.config.readStoreUrl),
  });
  try {
    const head = onProgress === undefined ? 0n : await models.feed.head();
    onProgress?.({ position: 0n, head });
    const done = await rebuild(
      models.db,
      models.feed,
      onProgress === undefined
        ? {}
        : { onCommitted: (position) => onProgress({ position, head: position > head ? position : head }) },
    );
    const results: ReplayResult[] = [];
    for (const name of READ_MODEL_TABLES) {
      const [r] = await models.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${name}`);
      results.push({ table: name, rows: Number(r?.n ?? 0) });
    }
    return { results, position: done.position.toString(), events: done.events };
  } finally {
    await models.close();
  }
}
