import { catchUp } from '../../projections/catch-up.js';
import { openReadModels, type ReadModels } from '../../projections/read-models.js';
import type { Config } from '../../src/config.js';
import { openStore } from '../../src/store/open.js';
import { StoreLocked } from '../../src/store/port.js';
import type { EventStoreWithProjections } from '../../src/store/projection-states.js';
import { storeExists } from './store-exists.js';

// What every operator command gets: the service's own configuration (same env: EVENT_STORE_URL,
// DATA_DIR, EVIDENCE_KEY), a line printer, and a way to open the store that explains a lock.

export interface OperatorContext {
  config: Config;
  out: (line: string) => void;
  err: (line: string) => void;
  now: () => Date;
  /**
   * Set when the command runs inside the service (src/operator/): its open store and read models,
   * used as they are (never opened or closed here; the service's projector keeps them current).
   */
  attached?: { store: EventStoreWithProjections; models: ReadModels };
}

/** Exit codes: 0 fine, 1 a finding (violation, refusal), 2 could not run (usage, config, store locked). */
export const EXIT = { ok: 0, finding: 1, cannotRun: 2 } as const;

/** Thrown when the embedded store is held by another process (the running service). */
export class OperatorStoreLocked extends Error {
  readonly code = 'STORE_LOCKED';
}

/** Thrown when EVENT_STORE_URL names no store: the command refuses instead of creating an empty one. */
export class OperatorNoStore extends Error {
  readonly code = 'NO_STORE';
}

/** How long a command inside the service waits for the read models to include the latest event. */
const ATTACHED_CATCH_UP_MS = 5_000;

export async function withStore<T>(
  ctx: OperatorContext,
  work: (store: EventStoreWithProjections) => Promise<T>,
): Promise<T> {
  if (ctx.attached) return work(ctx.attached.store);
  if (!(await storeExists(ctx.config.eventStoreUrl))) {
    throw new OperatorNoStore(
      `NoStore: there is no event store at ${redactUrl(ctx.config.eventStoreUrl)} ` +
        `(DATA_DIR=${ctx.config.dataDir}); nothing was created. ` +
        "Point DATA_DIR (or --data-dir) or EVENT_STORE_URL at the service's store.",
    );
  }
  let store: EventStoreWithProjections;
  try {
    store = await openStore(ctx.config.eventStoreUrl);
  } catch (err) {
    if (err instanceof StoreLocked) {
      throw new OperatorStoreLocked(
        `StoreLocked: ${err.message}\n` +
          'The embedded event store admits one process at a time and the service is probably running. ' +
          'Stop the service (then run this command again), or run the service and the operator tools on PostgreSQL ' +
          '(EVENT_STORE_URL=postgres://…), which several processes share.',
      );
    }
    throw err;
  }
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/**
 * The store and its read models, brought up to date first (the same projection code the service's
 * leader runs; the checkpoint's compare-and-set keeps this safe beside a running leader on PostgreSQL).
 */
export async function withReadModels<T>(
  ctx: OperatorContext,
  work: (store: EventStoreWithProjections, models: ReadModels) => Promise<T>,
): Promise<T> {
  if (ctx.attached) {
    await ctx.attached.models.caughtUp(ATTACHED_CATCH_UP_MS);
    return work(ctx.attached.store, ctx.attached.models);
  }
  return withStore(ctx, async (store) => {
    const models = await openReadModels(store, { readStoreUrl: ctx.config.readStoreUrl });
    try {
      await catchUp(models.db, models.feed);
      return await work(store, models);
    } finally {
      await models.close();
    }
  });
}

const redactUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');
