import type { Logger } from '../../runtime/log.js';
import { openStore } from './open.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';

// Where the read models live: beside the events on a SQL store (nothing to open), else in the SQL store
// READ_STORE_URL names, opened here and handed to the read models (projections/read-models.ts), which
// close it.

export async function openReadStore(
  store: EventStoreWithProjections,
  readStoreUrl: string,
  log?: Logger,
): Promise<EventStoreWithProjections | undefined> {
  if (store.sql) return undefined;
  return openStore(readStoreUrl, log ? { log } : {});
}
