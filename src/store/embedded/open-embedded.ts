import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { EventStoreWithProjections } from '../projection-states.js';
import { migrate } from '../sql/schema.js';
import { sqlEventStore, type SqlEventStoreOptions } from '../sql/sql-event-store.js';
import { lockDirectory } from './lockfile.js';
import { pgliteDriver } from './pglite-driver.js';

/**
 * The embedded default: PGlite (Postgres compiled to WASM) in `dir`, with the same schema and SQL
 * as the PostgreSQL adapter. The directory is created if missing and locked against other
 * processes for as long as the store is open.
 */
export async function openEmbeddedStore(dir: string, opts: SqlEventStoreOptions = {}): Promise<EventStoreWithProjections> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  let db: PGlite;
  try {
    db = await PGlite.create(dir);
  } catch (err) {
    await lock.release();
    throw err;
  }
  const driver = pgliteDriver(db, () => lock.release());
  try {
    await migrate(driver, undefined);
  } catch (err) {
    await driver.close();
    throw err;
  }
  opts.log?.info({ dir, lockfile: lock.path }, 'embedded event store open');
  return sqlEventStore(driver, opts);
}
