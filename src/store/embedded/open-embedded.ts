import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import { migrate } from '../sql/schema.js';
import { sqlEventStore, type SqlEventStoreOptions } from '../sql/sql-event-store.js';
import { initEmbeddedCluster } from './init-cluster.js';
import { lockDirectory } from './lockfile.js';
import { pgliteDriver } from './pglite-driver.js';

// PGlite keeps Postgres's buffer cache inside its WebAssembly memory, which is never returned to
// the system: the default 128 MB became 128 MB of the service's RSS for good. The files it caches
// stay in the kernel's page cache anyway, so a small pool costs a system call on a miss, not a disk
// read (bench:quote measures the store at 50k purchases).
const SHARED_BUFFERS = '16MB';

/**
 * The embedded default: PGlite (Postgres compiled to WASM) in `dir`, with the same schema and SQL
 * as the PostgreSQL adapter. The directory is created if missing and locked against other
 * processes for as long as the store is open.
 */
export async function openEmbeddedStore(
  dir: string,
  opts: SqlEventStoreOptions = {},
): Promise<EventStoreWithProjections> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  let db: PGlite;
  try {
    await initEmbeddedCluster(dir);
    db = await PGlite.create(dir, {
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    });
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
