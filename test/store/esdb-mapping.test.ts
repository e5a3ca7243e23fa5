import { randomUUID } from 'node:crypto';
import test from 'ava';
import { ANY, NO_STREAM, START, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import {
  INTERNAL_STREAM_PREFIX,
  isPortVisible,
  toEsdbExpectedRevision,
  toEsdbReadPosition,
  toRecordedEvent,
  translateEsdbError,
} from '../../src/store/esdb/esdb-mapping.js';
import { openStore } from '../../src/store/open/open.js';
import { StoreUnavailable, WrongExpectedRevision } from '../../src/store/port.js';

// The EventStoreDB adapter's translation code, tested without a server (none can run here,
// infra.md §1c). The adapter's behaviour against a server is test/store/esdb.test.ts.

test('esdb mapping: expected revisions pass through in the shared 0-based convention', (t) => {
  t.is(toEsdbExpectedRevision('no_stream'), NO_STREAM);
  t.is(toEsdbExpectedRevision('any'), ANY);
  t.is(toEsdbExpectedRevision(0n), 0n);
  t.is(toEsdbExpectedRevision(41n), 41n);
  t.throws(() => toEsdbExpectedRevision(-1n), { instanceOf: RangeError });
});

test('esdb mapping: a global position is a commit position; 0 reads from the start', (t) => {
  t.is(toEsdbReadPosition(0n), START);
  t.deepEqual(toEsdbReadPosition(1234n), { commit: 1234n, prepare: 1234n });
});

test('esdb mapping: WrongExpectedVersionError becomes WrongExpectedRevision with the actual revision', (t) => {
  const numeric = translateEsdbError(
    new WrongExpectedVersionError(undefined, { streamName: 'purchase-1', expected: 3n, current: 5n }),
    { stream: 'purchase-1', expected: 3n },
  );
  t.true(numeric instanceof WrongExpectedRevision);
  t.like(numeric as WrongExpectedRevision, {
    stream: 'purchase-1',
    expected: 3n,
    actual: 5n,
    code: 'WRONG_EXPECTED_REVISION',
  });

  const missing = translateEsdbError(
    new WrongExpectedVersionError(undefined, { streamName: 'purchase-2', expected: 0n, current: NO_STREAM }),
  );
  t.like(missing as WrongExpectedRevision, { stream: 'purchase-2', expected: 0n, actual: 'no_stream' });
});

test('esdb mapping: UnavailableError and the raw gRPC UNAVAILABLE error both become StoreUnavailable', (t) => {
  t.true(translateEsdbError(new UnavailableError(undefined, 'no leader')) instanceof StoreUnavailable);
  // What 6.2.1's appendToStream throws with nothing listening (infra.md §1a): a plain Error with gRPC status 14.
  const raw = Object.assign(
    new Error('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2113'),
    { code: 14 },
  );
  const mapped = translateEsdbError(raw);
  t.true(mapped instanceof StoreUnavailable);
  t.is((mapped as StoreUnavailable).cause, raw);
  const other = new Error('3 INVALID_ARGUMENT: bad');
  t.is(translateEsdbError(other), other, 'other errors pass through untouched');
});

test('esdb mapping: system events and the adapter’s own streams are not part of the port’s $all', (t) => {
  t.true(isPortVisible({ streamId: 'purchase-1', type: 'Quoted' }));
  t.false(isPortVisible({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' }));
  t.false(isPortVisible({ streamId: 'purchase-1', type: '$metadata' }));
  t.false(isPortVisible({ streamId: `${INTERNAL_STREAM_PREFIX}projection-report`, type: 'ProjectionStateSaved' }));
});

test('esdb mapping: recorded events keep id, stream, revision, commit position, data and metadata', (t) => {
  const created = new Date('2026-01-02T03:04:05Z');
  const id = randomUUID();
  const event = toRecordedEvent({
    streamId: 'purchase-9',
    id,
    isJson: true,
    revision: 2n,
    type: 'Settled',
    created,
    data: { amount: '10' },
    metadata: { correlation: 'x' },
    position: { commit: 900n, prepare: 900n },
  });
  t.deepEqual(event, {
    id,
    stream: 'purchase-9',
    type: 'Settled',
    revision: 2n,
    position: 900n,
    data: { amount: '10' },
    metadata: { correlation: 'x' },
    created,
  });
  const bare = toRecordedEvent({
    streamId: 's',
    id,
    isJson: true,
    revision: 0n,
    type: 'T',
    created,
    data: {},
    metadata: undefined,
    position: { commit: 1n, prepare: 1n },
  });
  t.deepEqual(bare.metadata, {});
  t.throws(
    () =>
      toRecordedEvent({
        streamId: 's',
        id,
        isJson: true,
        revision: 0n,
        type: 'T',
        created,
        data: {},
        metadata: undefined,
      }),
    { message: /without a position/ },
  );
});

// Needs no server: a port nobody listens on gives the raw gRPC error the adapter must translate.
test('esdb adapter: appending to an unreachable server rejects with StoreUnavailable', async (t) => {
  const store = await openStore('esdb://127.0.0.1:1?tls=false');
  try {
    await t.throwsAsync(store.append(`s-${randomUUID()}`, [{ id: randomUUID(), type: 'A', data: {} }], 'no_stream'), {
      instanceOf: StoreUnavailable,
    });
    await t.throwsAsync(store.readAll(0n, 10), { instanceOf: StoreUnavailable });
  } finally {
    await store.close();
  }
});
