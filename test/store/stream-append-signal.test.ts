import test from 'ava';
import type { StoreFactory } from './fixtures/store-under-test.js';
import { embeddedStore, sqliteStore } from './fixtures/store-under-test.js';
import { ev } from './conformance.js';

// A follower of one stream (the coverage ledger: src/service/coverage-follower.ts) hears that stream's
// appends, not every purchase's: before, each quote's append woke it to re-read the coverage stream
// (docs/decisions.md, "The embedded engine").
const signalOfOneStream = (label: string, factory: StoreFactory) =>
  test.serial(`${label}: onStreamAppend wakes for its stream's appends only`, async (t) => {
    const sut = await factory();
    try {
      const { store } = sut;
      t.truthy(store.onStreamAppend, 'the store offers a per-stream signal');
      const woken: string[] = [];
      const stop = store.onStreamAppend!('coverage', () => woken.push('coverage'));
      let any = 0;
      const stopAny = store.onAppend!(() => any++);
      for (let i = 0; i < 5; i++) await store.append(`purchase-${i}`, [ev('Quoted')], 'no_stream');
      t.deepEqual(woken, [], 'appends to other streams do not wake the coverage follower');
      await store.append('coverage', [ev('CoverageSeeded')], 'no_stream');
      t.deepEqual(woken, ['coverage']);
      t.is(any, 6, 'onAppend still hears every append');
      stop();
      await store.append('coverage', [ev('OriginAdded')], 0n);
      t.deepEqual(woken, ['coverage'], 'a stopped listener hears nothing more');
      stopAny();
    } finally {
      await sut.dispose();
    }
  });

signalOfOneStream('embedded', embeddedStore);
signalOfOneStream('sqlite', sqliteStore);
