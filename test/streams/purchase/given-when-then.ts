import type { ExecutionContext } from 'ava';
import { decideAt } from '../../support/decide-at.js';
import { fold } from '../../../streams/purchase/evolve.js';
import { PurchaseRefused, type RefusalCode } from '../../../streams/purchase/refusals.js';
import type { PurchaseCommandBody } from '../../../streams/purchase/commands.js';
import type { PurchaseEvent } from '../../../streams/purchase/events.js';
import type { PurchaseState } from '../../../streams/purchase/state.js';
import { NOW } from './fixtures.js';

// Given/When/Then for the purchase decider (the shape of Emmett's DeciderSpecification):
//   given(events).when(command).then(t, events) | .thenNothing(t) | .thenRefused(t, code)
// `then…` also returns the state after the decided events, for follow-up assertions.

export function given(events: readonly PurchaseEvent[]) {
  const state = fold(events);
  return {
    state,
    when(command: PurchaseCommandBody, now: Date = NOW) {
      const run = () => decideAt(command, state, now);
      return {
        then(t: ExecutionContext, expected: PurchaseEvent[]): PurchaseState {
          const events = run();
          t.deepEqual(events, expected);
          return fold(events, state);
        },
        thenNothing(t: ExecutionContext): PurchaseState {
          t.deepEqual(run(), []);
          return state;
        },
        thenRefused(t: ExecutionContext, code: RefusalCode): PurchaseRefused | undefined {
          const err = t.throws(run, { instanceOf: PurchaseRefused }, `${command.type} should be refused with ${code}`);
          t.is(err?.code, code, err?.message);
          return err as PurchaseRefused | undefined;
        },
        /** For decisions whose events carry a computed field (e.g. `at` = now). */
        events: run,
      };
    },
  };
}
