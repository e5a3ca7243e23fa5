import { rm } from 'node:fs/promises';
import test from 'ava';
import { openEmbeddedStore } from '../../src/store/embedded/open-embedded.js';
import type { EventStoreWithProjections } from '../../src/store/store-with-projections.js';
import { storeConformance } from './conformance.js';
import { freshEmbeddedDir, type StoreFactory } from './fixtures/store-under-test.js';

// PGlite on a worker thread (EMBEDDED_STORE_THREAD=worker) meets the same contract as on the main thread.
const workerStore: StoreFactory = async () => {
  const dir = await freshEmbeddedDir();
  const opened = new Set<EventStoreWithProjections>();
  const open = async () => {
    const store = await openEmbeddedStore(dir, {}, 'worker');
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
    label: 'embedded (worker thread)',
    url: `file:${dir}`,
    store: await open(),
    reopen: open,
    async dispose() {
      await Promise.all([...opened].map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
};

storeConformance(test, 'embedded (worker thread)', workerStore);
