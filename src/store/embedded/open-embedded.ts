import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import { migrate } from '../sql/schema.js';
import { sqlEventStore, type SqlEventStoreOptions } from '../sql/sql-event-store.js';
import { initEmbeddedCluster } from './init-cluster.js';
import { lockDirectory } from './lockfile.js';
import { pgliteDriver } from './pglite-driver.js';
import { pgliteWorkerDriver } from './pglite-worker-driver.js';
import type { SqlDriver } from '../sql-driver.js';

// PGlite keeps Postgres's buffer cache inside its WebAssembly memory, which is never returned to
// the system: the default 128 MB became 128 MB of the service's RSS for good. The files it caches
// stay in the kernel's page cache anyway, so a small pool costs a system call on a miss, not a disk
// read (bench:quote measures the store at 50k purchases).
const SHARED_BUFFERS = '16MB';

/**
 * Where PGlite runs: on the service's own event loop (the default), or on a worker thread
 * (EMBEDDED_STORE_THREAD=worker). The worker takes the database off the loop, but each statement then
 * crosses threads twice; on two cores, with the load generator on one, it did not pay (docs/decisions.md,
 * "The embedded engine"), so it stays a choice to measure on larger machines.
 */
export type EmbeddedThread = 'worker' | 'main';

export function embeddedThreadOf(value: string | undefined): EmbeddedThread {
  if (value === undefined || value === '' || value === 'main') return 'main';
  if (value === 'worker') return 'worker';
  throw new TypeError(`EMBEDDED_STORE_THREAD ${JSON.stringify(value)}: expected main or worker`);
}

/**
 * PGlite (Postgres compiled to WASM) in `dir`, with the same schema and SQL as the PostgreSQL adapter: the
 * embedded engine of a directory that already holds its cluster, or of `pglite:<dir>` (a new directory is
 * SQLite: docs/decisions.md, "SQLite, the embedded engine"). The directory is created if missing and locked
 * against other processes for as long as the store is open.
 */
export async function openEmbeddedStore(
  dir: string,
  opts: SqlEventStoreOptions = {},
  thread: EmbeddedThread = embeddedThreadOf(process.env.EMBEDDED_STORE_THREAD),
): Promise<EventStoreWithProjections> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`];
  let driver: SqlDriver;
  try {
    await initEmbeddedCluster(dir);
    driver =
      thread === 'worker'
        ? await pgliteWorkerDriver(dir, startParams, () => lock.release())
        : pgliteDriver(await PGlite.create(dir, { startParams }), () => lock.release());
  } catch (err) {
    await lock.release();
    throw err;
  }
  try {
    await migrate(driver, undefined);
  } catch (err) {
    await driver.close();
    throw err;
  }
  opts.log?.info({ dir, lockfile: lock.path, thread }, 'embedded event store open');
  return sqlEventStore(driver, opts);
}
