import test from 'ava';
import { memoryEventStore, memoryStorage } from '../support/memory/memory-event-store.js';
import { storeConformance } from './conformance.js';

// The in-memory store is a test double: it earns its place in the middle layer of tests by passing the
// same contract as every real adapter.
storeConformance(test, 'memory', async () => {
  const storage = memoryStorage();
  const opened = new Set<ReturnType<typeof memoryEventStore>>();
  const open = () => {
    const s = memoryEventStore(storage);
    opened.add(s);
    return s;
  };
  return {
    label: 'memory',
    store: open(),
    reopen: async () => open(),
    peer: async () => open(),
    url: 'memory:',
    async dispose() {
      for (const s of opened) await s.close();
    },
  };
});
