import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { openSqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import type { EventStoreWithProjections } from '../../src/store/store-with-projections.js';
import { storeConformance } from './conformance.js';
import type { StoreFactory } from './fixtures/store-under-test.js';

// SQLite, the native embedded engine measured beside PGlite (docs/decisions.md, "The embedded engine"),
// meets the same port contract as every adapter.
const sqliteStore: StoreFactory = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-sqlite-test-'));
  const opened = new Set<EventStoreWithProjections>();
  const open = async () => {
    const store = await openSqliteEventStore(dir);
    let closing: Promise<void> | undefined;
    const wrapped: EventStoreWithProjections = Object.create(store);
    wrapped.close = () => {
      opened.delete(wrapped);
      closing ??= store.close();
      return closing;
    };
    opened.add(wrapped);
    return wrapped;
  };
  return {
    label: 'sqlite',
    url: `sqlite:${dir}`,
    store: await open(),
    reopen: open,
    async dispose() {
      await Promise.all([...opened].map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
};

storeConformance(test, 'sqlite', sqliteStore);
