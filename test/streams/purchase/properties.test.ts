import test from 'ava';
import fc from 'fast-check';
import { decideAt } from '../../support/decide-at.js';
import { evolve } from '../../../streams/purchase/evolve.js';
import { PurchaseRefused } from '../../../streams/purchase/refusals.js';
import { initialState, LOCKED_STATUSES } from '../../../streams/purchase/state.js';
import type { PurchaseCommandBody } from '../../../streams/purchase/commands.js';
import type { PurchaseEvent } from '../../../streams/purchase/events.js';
import {
  at,
  checkpointData,
  deliveredData,
  heldData,
  movedData,
  offeredData,
  quotedData,
  settledData,
  stuckData,
  submittedData,
} from './fixtures.js';

// Whatever order commands arrive in (retries, races lost and replayed, operator actions), the stream
// keeps the money invariants. Refused commands leave the state as it was.

const pool: PurchaseCommandBody[] = [
  { type: 'Quote', data: quotedData() },
  { type: 'Offer', data: offeredData() },
  { type: 'CheckpointAuthorization', data: checkpointData() },
  { type: 'CheckpointAuthorization', data: checkpointData({ payment_sha256: 'f'.repeat(64) }) },
  { type: 'RecordSubmission', data: submittedData() },
  { type: 'RecordSettlement', data: settledData() },
  { type: 'RecordSettlement', data: settledData({ amount: '1' }) },
  { type: 'RecordSettlement', data: settledData({ transaction: `0x${'cd'.repeat(32)}` as const }) },
  { type: 'Deliver', data: deliveredData() },
  { type: 'Hold', data: heldData() },
  { type: 'MarkLockStuck', data: stuckData() },
  { type: 'OperatorMove', data: movedData('retry_settlement') },
  { type: 'OperatorMove', data: movedData('accept_settlement', { settlement: settledData() }) },
  { type: 'OperatorMove', data: movedData('closed_no_charge') },
  { type: 'OperatorMove', data: movedData('closed_settled_delivered') },
];

test('random command sequences keep the invariants of the money path', (t) => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: pool.length - 1 }), { maxLength: 30 }), (picks) => {
      let state = initialState;
      const log: PurchaseEvent[] = [];
      picks.forEach((pick, i) => {
        const before = state;
        let events: PurchaseEvent[];
        try {
          events = decideAt(pool[pick]!, state, at(10 + i));
        } catch (err) {
          if (!(err instanceof PurchaseRefused)) throw err;
          return; // refused: nothing changes
        }
        if (LOCKED_STATUSES.includes(before.status)) {
          if (!events.every((e) => e.type === 'OperatorMoved'))
            throw new Error(`a ${before.status} purchase moved without an operator`);
        }
        if (before.status === 'closed' && events.length > 0) throw new Error('a closed purchase changed');
        for (const e of events) {
          if (e.type === 'Delivered' && !before.settled) throw new Error('delivered without settlement');
          state = evolve(state, e);
          log.push(e);
        }
      });
      const count = (type: PurchaseEvent['type']) => log.filter((e) => e.type === type).length;
      for (const once of ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'Settled', 'Delivered'] as const) {
        if (count(once) > 1) throw new Error(`${once} appended ${count(once)} times`);
      }
      if (log.length > 0 && log[0]!.type !== 'Quoted') throw new Error('a stream must start with Quoted');
      // The checkpoint in force is the first one ever recorded: one authorization per purchase, ever.
      const first = log.find((e) => e.type === 'AuthorizationCheckpointed');
      if (
        state.checkpoint &&
        state.checkpoint.payment_sha256 !== (first?.data as { payment_sha256?: string } | undefined)?.payment_sha256
      )
        throw new Error('checkpoint replaced');
    }),
    { numRuns: 500 },
  );
  t.pass();
});
