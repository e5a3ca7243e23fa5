import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync, type DatabaseSyncInstance } from '@photostructure/sqlite';
import { lockDirectory } from '../embedded/lockfile.js';
import type { SqlEventStoreOptions } from '../sql/sql-event-store.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import { sqliteDriver } from './sqlite-driver.js';
import { SQLITE_FILE } from './sqlite-file.js';
import { migrateSqlite, sqliteEventStore } from './sqlite-event-store.js';
import { walCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';

/**
 * The embedded default for a new directory: SQLite in `dir/events.sqlite`, created if missing, the directory
 * locked against other processes for as long as the store is open (one process per directory: nothing else
 * writes, so no advisory lock, no announcement to other writers, and this process always leads the read
 * models). Of `opts`, the log and the poll interval apply; appends are not grouped
 * (src/store/sqlite/sqlite-event-store.ts).
 */
export async function openSqliteStore(
  dir: string,
  opts: SqlEventStoreOptions = {},
): Promise<EventStoreWithProjections> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  let db: DatabaseSyncInstance | undefined;
  const file = path.join(dir, SQLITE_FILE);
  try {
    db = new DatabaseSync(file);
    // WAL: readers never wait for the writer; NORMAL syncs at checkpoints, not every commit (a power cut may
    // lose the last commits, never corrupt the file).
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    // PostgreSQL's LIKE: purchase id prefixes are matched as written, and by the primary key's index.
    db.exec('PRAGMA case_sensitive_like = ON');
    // The read models' `updated = now()` (projections/schema.ts, write-batch.ts), as PostgreSQL writes it.
    db.function('now', () => new Date().toISOString());
    migrateSqlite(db);
  } catch (err) {
    db?.close();
    await lock.release();
    throw err;
  }
  // The WAL's checkpoints on a thread of their own (src/store/sqlite/wal-checkpointer.ts); its connection closes
  // before the lock goes.
  let driver: ReturnType<typeof sqliteDriver> | undefined;
  let checkpointer: WalCheckpointer;
  try {
    // Appends held the way a read-model transaction holds them: the connection's one turn (sqlite-driver.ts).
    const hold = <T>(work: () => Promise<T>): Promise<T> => (driver ? driver.transaction(() => work()) : work());
    checkpointer = await walCheckpointer(db, file, hold, { log: opts.log });
  } catch (err) {
    db.close();
    await lock.release();
    throw err;
  }
  driver = sqliteDriver(db, async () => {
    try {
      await checkpointer.close();
    } finally {
      await lock.release();
    }
  });
  opts.log?.info({ dir, lockfile: lock.path, engine: 'sqlite' }, 'embedded event store open');
  return sqliteEventStore(db, driver, opts);
}
