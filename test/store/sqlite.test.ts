import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { openStore } from '../../src/store/open/open.js';
import { StoreLocked } from '../../src/store/port.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/sqlite-event-store.js';
import { ev, storeConformance } from './conformance.js';
import { freshEmbeddedDir, sqliteStore } from './fixtures/store-under-test.js';

// SQLite, the embedded engine of a new directory (docs/decisions.md, "SQLite, the embedded engine"), meets the
// same port contract as every adapter.
storeConformance(test, 'sqlite', sqliteStore);

test.serial('a new file:<dir> is SQLite, one process per directory, the read models beside the events', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-sqlite-url-'));
  try {
    const store = await openStore(`file:${dir}`);
    t.is(store.sql?.dialect, 'sqlite', 'the read models run on the same SQLite file');
    t.true((await readdir(dir)).includes('events.sqlite'));
    await store.append('s', [ev('A')], 'no_stream');
    await t.throwsAsync(openStore(`file:${dir}`), { instanceOf: StoreLocked }, 'one process per directory');
    await store.close();
    const again = await openStore(`file:${dir}`);
    t.deepEqual(
      (await again.readStream('s')).map((e) => e.type),
      ['A'],
    );
    await again.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('a file:<dir> that holds a PGlite cluster keeps opening as PGlite', async (t) => {
  const dir = await freshEmbeddedDir();
  try {
    const store = await openStore(`file:${dir}`);
    t.is(store.sql?.dialect, 'postgres');
    t.false((await readdir(dir)).includes('events.sqlite'), 'no SQLite file beside the cluster');
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial(
  'an append waits for an open read-model transaction, whose rollback does not take the append',
  async (t) => {
    const under = await sqliteStore();
    try {
      const { store } = under;
      let appended: Promise<unknown> | undefined;
      await t.throwsAsync(
        store.sql!.transaction(async (tx) => {
          await tx.query(`CREATE TABLE scratch (x integer)`);
          // The one connection is inside this transaction: the append must not run in it.
          appended = store.append('s', [ev('A')], 'no_stream');
          for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
          throw new Error('rolled back');
        }),
        { message: 'rolled back' },
      );
      await appended;
      t.is((await store.readStream('s')).length, 1, 'the append committed after the rollback');
      t.deepEqual(
        await store.sql!.query(`SELECT name FROM sqlite_master WHERE name = 'scratch'`),
        [],
        'the transaction rolled back alone',
      );
    } finally {
      await under.dispose();
    }
  },
);

test.serial(
  'WAL at synchronous = NORMAL; the schema at its last migration after an open, none run again at a reopen',
  async (t) => {
    const under = await sqliteStore();
    try {
      const version = async (store: typeof under.store) =>
        Number((await store.sql!.query<{ user_version: number }>('PRAGMA user_version'))[0]?.user_version);
      t.is(await version(under.store), SQLITE_MIGRATIONS.length);
      const [journal] = await under.store.sql!.query<{ journal_mode: string }>('PRAGMA journal_mode');
      const [sync] = await under.store.sql!.query<{ synchronous: number }>('PRAGMA synchronous');
      t.is(journal?.journal_mode, 'wal');
      t.is(sync?.synchronous, 1, 'synchronous = NORMAL');
      await under.store.append('s', [ev('A')], 'no_stream');
      await under.store.close();
      const again = await under.reopen();
      t.is(await version(again), SQLITE_MIGRATIONS.length);
      t.is((await again.readStream('s')).length, 1, 'the events are untouched');
    } finally {
      await under.dispose();
    }
  },
);
