import { catchUp } from '../../projections/catch-up.js';
import { openReadModels, type ReadModels } from '../../projections/read-models.js';
import type { Config } from '../../src/config/config.js';
import { complianceRowsOf } from '../../src/operator/compliance.js';
import { replayReadModels } from '../../src/operator/replay.js';
import type { OperatorSession } from '../../src/operator/session.js';
import { runUseCase } from '../../src/operator/use-cases.js';
import { openStore } from '../../src/store/open/open.js';
import { openReadStore } from '../../src/store/open/read-store.js';
import { StoreLocked } from '../../src/store/port.js';
import type { EventStoreWithProjections } from '../../src/store/store-with-projections.js';
import { OperatorNoStore, OperatorStoreLocked, type OperatorService } from './context.js';
import { storeExists } from './store-exists.js';

// The operator use-cases on a store the CLI opens itself (no service runs): each call opens what its
// use-case asks for — the store, and the read models brought up to date first (the same projection
// code the service's leader runs; the checkpoint's compare-and-set keeps this safe beside a running
// leader on PostgreSQL) — and closes them after. A store that does not exist is refused, never created;
// one held by another process is explained.

export function localService(config: Config, now: () => Date): OperatorService {
  return {
    run: (request) => withLocalSession(config, now, (session) => runUseCase(session, request)),
    complianceRows: (range, consume) =>
      withLocalSession(config, now, async (session) => {
        await session.models(); // opened (or refused) before the first byte is written
        return consume(complianceRowsOf(session, range));
      }),
    replay: (onProgress) => withLocalSession(config, now, (session) => replayReadModels(session, onProgress)),
  };
}

async function withLocalSession<T>(
  config: Config,
  now: () => Date,
  work: (session: OperatorSession) => Promise<T>,
): Promise<T> {
  let store: EventStoreWithProjections | undefined;
  let models: ReadModels | undefined;
  const session: OperatorSession = {
    config,
    now,
    store: async () => (store ??= await openLocalStore(config)),
    async models() {
      if (!models) {
        const store = await session.store();
        models = await openReadModels(store, { readStore: await openReadStore(store, config.readStoreUrl) });
        await catchUp(models.db, models.feed);
      }
      return models;
    },
  };
  try {
    return await work(session);
  } finally {
    await models?.close();
    await store?.close();
  }
}

async function openLocalStore(config: Config): Promise<EventStoreWithProjections> {
  if (!(await storeExists(config.eventStoreUrl))) {
    throw new OperatorNoStore(
      `NoStore: there is no event store at ${redactUrl(config.eventStoreUrl)} ` +
        `(DATA_DIR=${config.dataDir}); nothing was created. ` +
        "Point DATA_DIR (or --data-dir) or EVENT_STORE_URL at the service's store.",
    );
  }
  try {
    return await openStore(config.eventStoreUrl);
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
}

const redactUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');
