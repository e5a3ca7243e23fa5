import type { Decider } from '../decider.js';
import type { PurchaseCommand } from './commands.js';
import { decide } from './decide.js';
import type { PurchaseEvent } from './events.js';
import { evolve } from './evolve.js';
import { initialState, type PurchaseState } from './state.js';

// The purchase stream's decider, in the shape src/command/handle-command.ts runs.
export const purchaseDecider: Decider<PurchaseState, PurchaseCommand, PurchaseEvent> = {
  decide,
  evolve,
  initialState: () => initialState,
};
