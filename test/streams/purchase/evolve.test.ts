import test from 'ava';
import { evolve, fold, PurchaseEventOutOfOrder, UnknownPurchaseEvent } from '../../../streams/purchase/evolve.js';
import { initialState, type PurchaseState } from '../../../streams/purchase/state.js';
import { ev, history, checkpointData, PAYMENT_SHA256, TX } from './fixtures.js';

test('the happy path folds to each status in turn, counting versions', (t) => {
  const steps = history.delivered();
  const statuses: string[] = [];
  let s = initialState;
  for (const e of steps) {
    s = evolve(s, e);
    statuses.push(s.status);
  }
  t.deepEqual(statuses, ['quoted', 'offered', 'checkpointed', 'settled', 'delivered']);
  t.is(s.version, 5);
  t.is(s.checkpoint?.payment_sha256, PAYMENT_SHA256);
  t.is(s.settled?.transaction, TX);
  t.deepEqual(fold(steps), s);
});

test('recorded events straight from the store (extra fields such as id/revision) fold the same', (t) => {
  const recorded = history.settled().map((e, i) => ({
    id: `id-${i}`,
    stream: 'purchase-x',
    revision: BigInt(i),
    type: e.type,
    data: JSON.parse(JSON.stringify(e.data)) as unknown,
  }));
  t.deepEqual(fold(recorded), fold(history.settled()));
});

test('ambiguous submissions are counted; a checkpoint starts the count at zero', (t) => {
  const s = fold([...history.submitted(), ev.submitted(), ev.submitted()]);
  t.is(s.status, 'settlement_submitted');
  t.is(s.submissions, 3);
  t.is(s.last_submission?.transaction, TX);
  t.is(fold(history.checkpointed()).submissions, 0);
});

test(
  'held and stuck remember where the purchase was; ' + 'an operator move clears the lock but keeps the audit trail',
  (t) => {
    const stuck = fold([...history.submitted(), ev.stuck()]);
    t.is(stuck.status, 'lock_stuck');
    t.is(stuck.locked_from, 'settlement_submitted');
    t.is(stuck.stuck?.reason, 'WINDOW_PASSED_UNSETTLED');
    const moved = fold([...history.submitted(), ev.stuck(), ev.moved('retry_settlement')]);
    t.is(moved.status, 'checkpointed');
    t.is(moved.stuck, undefined);
    t.is(moved.locked_from, undefined);
    t.deepEqual(
      moved.operator_moves.map((m) => m.target),
      ['retry_settlement'],
    );
    t.is(moved.checkpoint?.payment_sha256, PAYMENT_SHA256, 'the checkpoint is never dropped');
  },
);

test('evolve does not mutate the state it is given (pure)', (t) => {
  const before = fold(history.offered());
  const snapshot = structuredClone(before);
  const deepFreeze = (o: unknown): void => {
    if (o && typeof o === 'object') {
      Object.freeze(o);
      Object.values(o).forEach(deepFreeze);
    }
  };
  deepFreeze(before);
  const after = evolve(before, ev.checkpointed());
  t.deepEqual(before, snapshot);
  t.not(after, before);
  t.is(initialState.status, 'none');
  t.is(initialState.version, 0);
});

test('an unknown event type or a malformed event stops the fold loudly', (t) => {
  t.throws(() => evolve(initialState, { type: 'Refunded', data: {} }), { instanceOf: UnknownPurchaseEvent });
  t.throws(() => evolve(initialState, { type: 'Quoted', data: { purchase_id: 'x' } }), {
    instanceOf: UnknownPurchaseEvent,
  });
  const s: PurchaseState = fold(history.offered());
  t.throws(
    () => evolve(s, { type: 'AuthorizationCheckpointed', data: checkpointData({ payment_sha256: 'NOT-HEX' }) }),
    { instanceOf: UnknownPurchaseEvent },
  );
});

test('an order decide never emits (a delivery before any settlement) stops the fold loudly', (t) => {
  t.throws(() => fold([...history.checkpointed(), ev.delivered()]), {
    instanceOf: PurchaseEventOutOfOrder,
    message: /needs settled/,
  });
  t.throws(() => fold([ev.offered()]), { instanceOf: PurchaseEventOutOfOrder, message: /needs quoted/ });
});
