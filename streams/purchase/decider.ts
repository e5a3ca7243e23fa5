import type { Decider } from '../decider.js';
import type { PurchaseCommand } from './commands.js';
import { decide } from './decide.js';
import type { PurchaseEvent } from './events.js';
import { evolve, evolveDecided } from './evolve.js';
import { initialState, type PurchaseState } from './state.js';

// The purchase stream's decider, in the shape src/command/handle-command.ts runs.
export const purchaseDecider: Decider<PurchaseState, PurchaseCommand, PurchaseEvent> &
  Required<Pick<Decider<PurchaseState, PurchaseCommand, PurchaseEvent>, 'evolveDecided'>> = {
  decide,
  evolve,
  evolveDecided,
  initialState: () => initialState,
};
