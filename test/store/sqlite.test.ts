import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { openStore } from '../../src/store/open.js';
import { StoreLocked } from '../../src/store/port.js';
import { ev, storeConformance } from './conformance.js';
import { sqliteStore } from './fixtures/store-under-test.js';

// SQLite, the native embedded engine measured beside PGlite (docs/decisions.md, "The embedded engine"),
// meets the same port contract as every adapter.
storeConformance(test, 'sqlite', sqliteStore);

test.serial(
  'sqlite:<dir> opens the SQLite event store, without SQL for read models (they go to READ_STORE_URL)',
  async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-sqlite-url-'));
    try {
      const store = await openStore(`sqlite:${dir}`);
      t.is(store.sql, undefined, 'the read models do not run on SQLite: openReadModels opens READ_STORE_URL');
      await store.append('s', [ev('A')], 'no_stream');
      await t.throwsAsync(openStore(`sqlite:${dir}`), { instanceOf: StoreLocked }, 'one process per directory');
      await store.close();
      const again = await openStore(`sqlite:${dir}`);
      t.deepEqual(
        (await again.readStream('s')).map((e) => e.type),
        ['A'],
      );
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
