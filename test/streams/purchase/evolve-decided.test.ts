import test from 'ava';
import { PurchaseEvent } from '../../../streams/purchase/events.js';
import { evolve, evolveDecided } from '../../../streams/purchase/evolve.js';
import { initialState, type PurchaseState } from '../../../streams/purchase/state.js';
import { ev, history } from './fixtures.js';

// decide's own events are folded without a second decode (streams/decider.ts, evolveDecided): safe because a
// decode of a valid event answers that very value (every PurchaseEvent codec is `t.type` over identity codecs),
// so skipping it can change nothing but the CPU spent.

const everyType = [
  ...history.delivered(),
  ev.submitted(),
  ev.broadcast(),
  ev.held(),
  ev.stuck(),
  ev.moved('retry_settlement'),
];

test('a decode of every kind of valid purchase event answers the event itself, not a reshaped copy', (t) => {
  const types = new Set<string>();
  for (const e of everyType) {
    const decoded = PurchaseEvent.decode(e);
    if (decoded._tag === 'Left') return t.fail(`${e.type} does not decode`);
    t.is(decoded.right.data, e.data, e.type);
    types.add(e.type);
  }
  t.is(types.size, 10);
});

test('evolveDecided folds every kind of event to the state evolve folds it to', (t) => {
  const paths = [
    history.delivered(),
    [...history.submitted(), ev.broadcast(), ev.stuck(), ev.moved('retry_settlement')],
    [...history.checkpointed(), ev.held()],
  ];
  for (const path of paths) {
    let decoded: PurchaseState = initialState;
    let trusted: PurchaseState = initialState;
    for (const e of path) {
      decoded = evolve(decoded, e);
      trusted = evolveDecided(trusted, e);
      t.deepEqual(trusted, decoded, e.type);
    }
  }
});

test('what comes from a store is still decoded: evolve refuses a malformed event', (t) => {
  const bad = { type: 'Quoted', data: { ...ev.quoted().data, price_micro: 'twenty' } };
  t.throws(() => evolve(initialState, bad), { message: /does not decode/ });
});
