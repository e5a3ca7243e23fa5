import test from 'ava';
import { handleCommand } from '../../src/command/handle-command.js';
import type { Decider } from '../../streams/decider.js';
import { WrongExpectedRevision } from '../../src/store/port.js';
import { memoryEventStore } from '../support/memory/memory-event-store.js';
import { noteStreamReads } from '../support/stream-reads.js';

// handleCommand with a state the caller already holds (`known`; docs/decisions.md, "One walk for a paid
// redemption"): decided on unread, appended at its revision; a stale one is caught by the append, and a
// decision to do nothing on it is checked against the stream read afresh.

type Counter = { count: number; closed: boolean };
type CounterEvent = { type: 'Added'; data: { by: number } } | { type: 'Closed'; data: Record<string, never> };
type CounterCommand = { type: 'Add'; by: number } | { type: 'Close' };

const counter: Decider<Counter, CounterCommand, CounterEvent> = {
  initialState: () => ({ count: 0, closed: false }),
  evolve: (s, e) =>
    e.type === 'Added' ? { ...s, count: s.count + (e.data as { by: number }).by } : { ...s, closed: true },
  decide(c, s) {
    if (s.closed) throw new Error('closed');
    if (c.type === 'Close') return [{ type: 'Closed', data: {} }];
    return c.by === 0 ? [] : [{ type: 'Added', data: { by: c.by } }];
  },
};

test('a fresh known state is decided on and appended without a read', async (t) => {
  const store = memoryEventStore();
  const reads = noteStreamReads(store);
  const first = await handleCommand(store, 'c-1', counter, { type: 'Add', by: 2 });
  t.is(reads.count(), 1);
  const second = await handleCommand(
    store,
    'c-1',
    counter,
    { type: 'Add', by: 3 },
    {
      known: { state: first.state, revision: first.revision },
    },
  );
  t.is(reads.count(), 1, 'no read for the second command');
  t.is(second.state.count, 5);
  t.is(second.revision, 1n);
});

test('a stale known state fails the append; with a retry the stream read afresh decides', async (t) => {
  const store = memoryEventStore();
  const reads = noteStreamReads(store);
  const first = await handleCommand(store, 'c-2', counter, { type: 'Add', by: 1 });
  await handleCommand(store, 'c-2', counter, { type: 'Add', by: 10 }); // another writer
  const stale = { state: first.state, revision: first.revision };
  await t.throwsAsync(handleCommand(store, 'c-2', counter, { type: 'Add', by: 1 }, { known: stale }), {
    instanceOf: WrongExpectedRevision,
  });
  const before = reads.count();
  const retried = await handleCommand(
    store,
    'c-2',
    counter,
    { type: 'Add', by: 1 },
    { known: stale, retryOnConflict: 1 },
  );
  t.is(retried.state.count, 12, 'decided on the stream as it stands');
  t.is(reads.count() - before, 1);
});

test('nothing to do, or a refusal, on a known state is checked against the stream as it stands', async (t) => {
  const store = memoryEventStore();
  const first = await handleCommand(store, 'c-3', counter, { type: 'Add', by: 1 });
  await handleCommand(store, 'c-3', counter, { type: 'Close' }); // another writer closed it
  const stale = { state: first.state, revision: first.revision };
  await t.throwsAsync(handleCommand(store, 'c-3', counter, { type: 'Add', by: 0 }, { known: stale }), {
    message: 'closed',
  });
  const fresh = await handleCommand(store, 'c-4', counter, { type: 'Close' });
  const reopenedElsewhere = { state: { count: 0, closed: true }, revision: fresh.revision };
  // A refusal decided on a known state is not trusted either: the stream decides (here it agrees).
  await t.throwsAsync(handleCommand(store, 'c-4', counter, { type: 'Add', by: 1 }, { known: reopenedElsewhere }), {
    message: 'closed',
  });
  const nothing = await handleCommand(
    store,
    'c-1x',
    counter,
    { type: 'Add', by: 0 },
    {
      known: { state: { count: 7, closed: false }, revision: 0n },
    },
  );
  t.is(nothing.state.count, 0, 'the stream (empty) answered, not the made-up known state');
  t.is(nothing.revision, 'no_stream');
});

test("decide's own events are folded by evolveDecided when the decider has one; read events by evolve", async (t) => {
  const folded: string[] = [];
  const tracing: Decider<Counter, CounterCommand, CounterEvent> = {
    ...counter,
    evolve: (s, e) => {
      folded.push(`evolve ${e.type}`);
      return counter.evolve(s, e);
    },
    evolveDecided: (s, e) => {
      folded.push(`decided ${e.type}`);
      return counter.evolve(s, e);
    },
  };
  const store = memoryEventStore();
  const first = await handleCommand(store, 'c-trace', tracing, { type: 'Add', by: 2 });
  t.deepEqual(folded, ['decided Added']);
  const second = await handleCommand(store, 'c-trace', tracing, { type: 'Add', by: 3 });
  t.deepEqual(folded, ['decided Added', 'evolve Added', 'decided Added']);
  t.is(first.state.count, 2);
  t.is(second.state.count, 5);
});
