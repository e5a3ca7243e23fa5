import { rm } from 'node:fs/promises';
import test from 'ava';
import { openEmbeddedStore } from '../../src/store/embedded/open-embedded.js';
import { storeConformance } from './conformance.js';
import { freshEmbeddedDir, storeUnderTest, type StoreFactory } from './fixtures/store-under-test.js';

// PGlite on a worker thread (EMBEDDED_STORE_THREAD=worker) meets the same contract as on the main thread.
const workerStore: StoreFactory = async () => {
  const dir = await freshEmbeddedDir();
  return storeUnderTest({
    label: 'embedded (worker thread)',
    url: `file:${dir}`,
    open: () => openEmbeddedStore(dir, {}, 'worker'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  });
};

storeConformance(test, 'embedded (worker thread)', workerStore);
