import test from 'ava';
import { recordQuote } from '../../src/money-path/purchase-stream.js';
import { initialState, streamName } from '../../streams/purchase/index.js';
import { memoryEventStore } from '../support/memory/memory-event-store.js';
import { NOW, PURCHASE_ID, quotedData } from '../streams/purchase/fixtures.js';
import { noteStreamReads } from '../support/stream-reads.js';

// A quote of a fresh random key is recorded on the state it is known to have (no stream) without reading the
// stream first (src/money-path/sale.ts; docs/decisions.md, "A quote on SQLite"); the append at no_stream is the
// check, and a stream that exists after all is read afresh and its stored quote stands.

const deps = (store: ReturnType<typeof memoryEventStore>) => ({ store, now: () => NOW });

test('a quote on a known empty stream is appended without a read', async (t) => {
  const store = memoryEventStore();
  const reads = noteStreamReads(store);
  const state = await recordQuote(deps(store), quotedData(), { known: initialState, retryOnConflict: 1 });
  t.is(reads.count(), 0);
  t.is(state.status, 'quoted');
  t.is(state.version, 1);
  t.deepEqual(
    (await store.readStream(streamName(PURCHASE_ID))).map((e) => e.type),
    ['Quoted'],
  );
});

test('a stream quoted meanwhile is read afresh and its stored quote stands, nothing appended twice', async (t) => {
  const store = memoryEventStore();
  const reads = noteStreamReads(store);
  const first = await recordQuote(deps(store), quotedData({ price_micro: '10000' }), {
    known: initialState,
    retryOnConflict: 1,
  });
  const second = await recordQuote(deps(store), quotedData(), { known: initialState, retryOnConflict: 1 });
  t.is(reads.count(), 1, 'only the conflict read the stream');
  t.is(second.quoted?.price_micro, first.quoted?.price_micro);
  t.is((await store.readStream(streamName(PURCHASE_ID))).length, 1);
});
